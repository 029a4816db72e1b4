// Labels are in sentence case: buttons, headings, field labels and tab names capitalise their first
// word only ("Save changes", "Email domains"), names and acronyms aside. The product spec's own
// strings stay word for word even where they are in title case. This scan reads every string of the
// app and fails on a title-cased label that is neither a spec string nor a name listed below.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

const SRC = path.resolve(import.meta.dirname, '../..');

/** Strings the product spec gives word for word (product-spec.md, section 2). */
const SPEC_STRINGS = new Set([
  'Go Back',
  'Try Again',
  'Apply Filters',
  'Read Status',
  'Business Response',
  'Created Date After',
  'Created Date Before',
  'Not Replied',
  'Anonymous Customer',
  'Titan Message',
  'Send Attachment',
  'Attachment Added',
]);

/** Title case on purpose, with the reason. */
const ALLOWED: Record<string, string> = {
  'Last Message After': 'beside the spec’s "Created Date After" in the same filter panel',
  'Last Message Before': 'beside the spec’s "Created Date Before" in the same filter panel',
  'Auth Token': 'Twilio’s name for the field, as its console shows it',
  'Messaging Service SID': 'Twilio’s name for the field, as its console shows it',
  'WhatsApp Business Account ID': 'Meta’s name for the field, as its dashboard shows it',
  'Amazon Route 53': 'a product name',
  'Squarespace Domains (formerly Google Domains)': 'product names',
  'Dieser Link ist ungültig': 'German, which capitalises its nouns (the consent pages’ translations)',
  'Ada Lovelace': 'a sample customer’s name',
};

/** Words that keep their capital anywhere: names, products, acronyms, days and months. */
const NAMES = new Set(
  (
    'Titan WhatsApp SMS MMS MCP API AI URL ID IDs CSV HTML MJML DNS SPF DKIM DMARC CNAME TXT MX Google ' +
    'Microsoft Meta Twilio OAuth HTTP HTTPS JSON QR CSAT SLA TOTP IANA UTC Markdown OpenAI Anthropic ' +
    'Slack Stripe PDF GDPR I OK Cc Bcc Europe Berlin Monday Tuesday Wednesday Thursday Friday Saturday ' +
    'Sunday Mon Tue Wed Thu Fri Sat Sun Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec Email SID'
  ).split(' '),
);

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === '__tests__' || entry.name === 'test' ? [] : files(full);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

/** A short string that reads as a label and capitalises a later word that is not a name. */
export function isTitleCased(text: string): boolean {
  if (text.includes('${') || text.length > 60 || !/^[A-Z][a-z]/.test(text) || /[.!]$/.test(text))
    return false;
  const words = text.split(/\s+/);
  if (words.length < 2 || words.length > 7) return false;
  // A word after "!" or "?" starts a sentence of its own ("Hi! How can we help?").
  return words.some(
    (word, i) =>
      i > 0 &&
      !/[!?]$/.test(words[i - 1]!) &&
      /^[A-Z][a-z]/.test(word) &&
      !NAMES.has(word.replace(/[’'s:?,()…]+$/g, '')),
  );
}

const LITERAL = /(['"`])((?:(?!\1)[^\\\n]|\\.)*)\1/g;
/** Text written straight into JSX: <Button>Save changes</Button>. */
const JSX_TEXT = />\s*([A-Z][^<>{}]*?)\s*</g;

describe('label case', () => {
  it('tells a title-cased label from sentence case, names aside', () => {
    expect(isTitleCased('Save Changes')).toBe(true);
    expect(isTitleCased('Email Domains')).toBe(true);
    expect(isTitleCased('Save changes')).toBe(false);
    expect(isTitleCased('Connect WhatsApp')).toBe(false);
    expect(isTitleCased('Every Monday at 09:00')).toBe(false);
    expect(isTitleCased('Hi! How can we help?')).toBe(false);
  });

  it('keeps every label of the app in sentence case, spec strings word for word', () => {
    const found = files(SRC).flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .filter((line) => !/^\s*(\/\/|\*|\/\*|import )/.test(line) && !line.includes('className'))
        .flatMap((line) => [
          ...[...line.matchAll(LITERAL)].map((match) => match[2]!),
          ...[...line.matchAll(JSX_TEXT)].map((match) => match[1]!),
        ])
        .filter(isTitleCased)
        .filter((text) => !SPEC_STRINGS.has(text) && !(text in ALLOWED))
        .map((text) => `${path.relative(SRC, file)}: ${text}`),
    );
    expect(found).toEqual([]);
  });
});
