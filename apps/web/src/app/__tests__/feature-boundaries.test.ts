// The lint rule behind "features never import each other", run through the repository's own ESLint
// config: a feature importing another fails the lint, shared code and the feature's own files pass.
import path from 'node:path';

import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The repository root (this file is apps/web/src/app/__tests__/).
const ROOT = path.resolve(import.meta.dirname, '../../../../..');
const eslint = new ESLint({ cwd: ROOT });

async function boundaryErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, 'apps/web/src/features', file) });
  return result!.messages
    .filter((message) => message.ruleId === 'titan-web/no-cross-feature-imports')
    .map((message) => message.message);
}

describe('feature boundaries', () => {
  it(
    'refuses a feature importing another, at any depth and however it imports',
    { timeout: 30_000 },
    async () => {
      expect(
        await boundaryErrors(
          'event-logs/components/probe.ts',
          [
            "import { BalanceSummary } from '../../whatsapp/components/balance-summary';",
            "export * from '../../settings/strings';",
            "export const later = () => import('../../auth/strings');",
            'export const probe = BalanceSummary;',
          ].join('\n'),
        ),
      ).toEqual([
        expect.stringContaining("Feature 'event-logs' imports feature 'whatsapp'"),
        expect.stringContaining("Feature 'event-logs' imports feature 'settings'"),
        expect.stringContaining("Feature 'event-logs' imports feature 'auth'"),
      ]);
      expect(
        await boundaryErrors(
          'whatsapp/probe.ts',
          "import { EVENT_LOGS_STRINGS } from '../event-logs/strings';\nexport const probe = EVENT_LOGS_STRINGS;",
        ),
      ).toEqual([expect.stringContaining("Feature 'whatsapp' imports feature 'event-logs'")]);
    },
  );

  it('lets a feature import its own files and the shared code', { timeout: 30_000 }, async () => {
    expect(
      await boundaryErrors(
        'event-logs/components/probe.ts',
        [
          "import { EmptyState } from '../../../components/empty-state';",
          "import { EVENT_LOGS_PATH } from '../../../config/paths';",
          "import { EVENT_LOGS_STRINGS } from '../strings';",
          "import { LogsTable } from './logs-table';",
          'export const probe = [EmptyState, EVENT_LOGS_PATH, EVENT_LOGS_STRINGS, LogsTable];',
        ].join('\n'),
      ),
    ).toEqual([]);
  });

  it('keeps the direction shared → features → app', { timeout: 30_000 }, async () => {
    const zoneErrors = async (file: string, code: string) => {
      const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, 'apps/web/src', file) });
      return result!.messages
        .filter((message) => message.ruleId === 'import-x/no-restricted-paths')
        .map((message) => message.message);
    };
    expect(
      await zoneErrors(
        'lib/probe.ts',
        "import { LISTS_STRINGS } from '../features/customer-lists/strings';\nexport const probe = LISTS_STRINGS;",
      ),
    ).toEqual([expect.stringContaining('Shared code sits below features and the app')]);
    expect(
      await zoneErrors(
        'components/probe.ts',
        "import { SHELL_STRINGS } from '../app/strings';\nexport const probe = SHELL_STRINGS;",
      ),
    ).toEqual([expect.stringContaining('Shared code sits below features and the app')]);
    expect(
      await zoneErrors(
        'features/agents/probe.ts',
        "import { SHELL_STRINGS } from '../../app/strings';\nexport const probe = SHELL_STRINGS;",
      ),
    ).toEqual([expect.stringContaining('A feature never imports the app')]);
    expect(
      await zoneErrors(
        'app/probe.ts',
        "import { LISTS_STRINGS } from '../features/customer-lists/strings';\nexport const probe = LISTS_STRINGS;",
      ),
    ).toEqual([]);
  });
});
