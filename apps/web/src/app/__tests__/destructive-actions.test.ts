// "Confirm before deleting anything with data behind it": every screen that calls a delete, remove or
// revoke hook also renders a confirmation (ConfirmAction or an AlertDialog). A new delete button
// without one fails here. Hooks that undo nothing worth a question are listed with the reason.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

const SRC = path.resolve(import.meta.dirname, '../..');

/** Hooks whose action needs no confirmation, and why. */
const NO_CONFIRMATION: Record<string, string> = {
  useEndSession: 'ends one signed-in device; the person signs in again, nothing is lost',
};

/** Screens that hand the action to a component which confirms it: screen → that component's file. */
const CONFIRMED_BY: Record<string, string> = {
  'features/email-templates/routes/email-templates-route.tsx: useDeleteEmailTemplate':
    'features/email-templates/components/email-templates-table.tsx',
};

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === '__tests__' ? [] : files(full);
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

const sources = files(SRC).map((file) => ({
  file: path.relative(SRC, file),
  text: readFileSync(file, 'utf8'),
}));
const destructiveHooks = [
  ...new Set(
    sources.flatMap(({ text }) =>
      [...text.matchAll(/export function (use(?:Delete|Remove|Revoke|Disable|Erase)[A-Za-z]*)\(/g)].map(
        (m) => m[1]!,
      ),
    ),
  ),
];

const CONFIRMS = /<ConfirmAction\b|<AlertDialog\b/;

describe('destructive actions', () => {
  it('finds the delete hooks (the scan itself works)', () => {
    expect(destructiveHooks).toEqual(
      expect.arrayContaining(['useDeleteAgent', 'useDeleteVisitor', 'useRevokeApiKey']),
    );
  });

  it('are confirmed on every screen that calls them', () => {
    const unconfirmed = destructiveHooks
      .filter((hook) => !(hook in NO_CONFIRMATION))
      .flatMap((hook) =>
        sources
          .filter(({ file, text }) => file.endsWith('.tsx') && text.includes(`${hook}(`))
          .filter(({ text }) => !CONFIRMS.test(text))
          .map(({ file }) => `${file}: ${hook}`)
          .filter(
            (site) => !CONFIRMS.test(sources.find(({ file }) => file === CONFIRMED_BY[site])?.text ?? ''),
          ),
      );
    expect(unconfirmed).toEqual([]);
  });
});
