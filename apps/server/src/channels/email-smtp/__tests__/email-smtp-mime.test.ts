// The one-pass MIME builder and DKIM signer (email-smtp.mime.ts): what a mail client and an
// independent verifier (mailauth) read from its message is what nodemailer's builder gives for
// the same payload — parts, headers, signature — and the unusual shapes are left to nodemailer.
import { createPrivateKey, generateKeyPairSync } from 'node:crypto';
import { createRequire } from 'node:module';
import { simpleParser, type ParsedMail } from 'mailparser';
import { describe, expect, it } from 'vitest';
import { DKIM_HEADER_FIELDS, mailOptions, messageBuilder, type EmailPayload } from '../email-smtp.message';
import { buildMime } from '../email-smtp.mime';

const require = createRequire(import.meta.url);
const { dkimVerify } = require('mailauth/lib/dkim/verify') as {
  dkimVerify: (
    input: Buffer,
    options: { resolver: (name: string, type: string) => Promise<string[][]> },
  ) => Promise<{ results: { status: { result: string; comment?: string } }[] }>;
};

const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const record = `v=DKIM1; k=rsa; p=${publicKey.export({ type: 'spki', format: 'der' }).toString('base64')}`;

async function verify(raw: Buffer): Promise<string> {
  const { results } = await dkimVerify(raw, {
    resolver: async (name) => {
      if (name === 's2026._domainkey.acme.test') return [[record]];
      throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    },
  });
  return results.map((r) => r.status.result).join(',');
}

function payload(over: Partial<EmailPayload> = {}): EmailPayload {
  return {
    from: '"Acme News" <news@acme.test>',
    to: 'ada@example.org',
    subject: 'Spring is here, Ada',
    html: '<!doctype html><html><body><p>Hello Ada,</p><p><a href="https://shop.example.com/?a=1&amp;b=2">Shop</a></p></body></html>',
    text: 'Hello Ada,\n\nShop <https://shop.example.com/?a=1&b=2>',
    headers: {
      'List-Unsubscribe':
        '<https://titan.example.com/api/email/unsubscribe/?token=0f2b6c1e-6a4d-4b8e-9d7e-1c2d3e4f5a6b.c2lnbmF0dXJlLWJ5dGVzLWhlcmU>, <mailto:unsubscribe+0f2b6c1e@bounces.acme.test>',
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
    messageId: '<0f2b6c1e-6a4d-4b8e-9d7e-1c2d3e4f5a6b@acme.test>',
    envelopeFrom: 'bounce+0f2b6c1e@bounces.acme.test',
    dkim: { domainName: 'acme.test', keySelector: 's2026', privateKey: pem },
    ...over,
  };
}

function built(p: EmailPayload): Buffer | null {
  return buildMime({
    ...p,
    date: new Date('2026-11-24T08:00:00Z'),
    dkim: p.dkim
      ? { ...p.dkim, privateKey: createPrivateKey(p.dkim.privateKey), headerFieldNames: DKIM_HEADER_FIELDS }
      : null,
  });
}

async function byNodemailer(p: EmailPayload): Promise<Buffer> {
  return ((await messageBuilder().sendMail(mailOptions(p))) as { message: Buffer }).message;
}

/** What a reader's client shows: the parts and the headers a person or a mailbox provider reads. */
function seen(mail: ParsedMail) {
  return {
    from: mail.from?.value,
    to: Array.isArray(mail.to) ? mail.to.flatMap((t) => t.value) : mail.to?.value,
    subject: mail.subject,
    messageId: mail.messageId,
    text: mail.text?.replace(/\n$/, ''),
    html: mail.html === false ? false : mail.html?.replace(/\n$/, ''),
    listUnsubscribe: mail.headers.get('list-unsubscribe'),
    listUnsubscribePost: mail.headers.get('list-unsubscribe-post'),
  };
}

const cases: [string, Partial<EmailPayload>][] = [
  ['a plain mail', {}],
  [
    'accents and emoji in the subject and both parts',
    {
      subject:
        'Frühling ist da, Zoë 🌷 — jusqu’à -30 % sur une sélection très longue de nos produits préférés',
      html: '<p>Grüße, Zoë! Ça coûte 5 €. 🌷</p>',
      text: 'Grüße, Zoë!\r\nÇa coûte 5 €. 🌷',
    },
  ],
  [
    'long lines, dots and spaces at line starts and ends, tabs, equals signs',
    {
      html: `<p>${'word '.repeat(60)}</p>\n.leading dot\n..two dots\ntrailing spaces   \n\tTab\ta=b==c\n\n\n`,
      text: `${'x'.repeat(300)}\n.\n.dot\nend with spaces  \n\n`,
    },
  ],
  ['a text-only mail', { html: null, text: 'Just text,\nover two lines.' }],
  ['an empty text part', { html: '<p>Only HTML</p>', text: '' }],
];

describe('buildMime', () => {
  for (const [what, over] of cases) {
    it(`${what}: a DKIM signature mailauth verifies, read as nodemailer's message is`, async () => {
      const p = payload(over);
      const raw = built(p)!;
      expect(raw).not.toBeNull();
      expect(await verify(raw)).toBe('pass');
      const mine = seen(await simpleParser(raw));
      const theirs = seen(await simpleParser(await byNodemailer(p)));
      expect(mine).toEqual(theirs);
      // Lines stay within SMTP's limit.
      for (const line of raw.toString('utf8').split('\r\n')) expect(line.length).toBeLessThanOrEqual(998);
    });
  }

  it('signs the fields of DKIM_HEADER_FIELDS it has, List-Unsubscribe-Post included, and only those', async () => {
    const raw = built(payload())!.toString('utf8');
    const h = /\bh=([^;]+);/
      .exec(raw.replace(/\r\n\s+/g, ' '))![1]!
      .trim()
      .split(':');
    expect(h).toEqual([
      'from',
      'to',
      'subject',
      'message-id',
      'date',
      'mime-version',
      'list-unsubscribe',
      'list-unsubscribe-post',
      'content-type',
    ]);
  });

  it('a changed byte of the body or of a signed header fails the signature', async () => {
    const raw = built(payload())!.toString('utf8');
    // mailauth says `neutral` for a body that no longer matches its hash, `fail` for a bad signature.
    expect(await verify(Buffer.from(raw.replace('Hello Ada', 'Hello Bob')))).toMatch(/^(fail|neutral)$/);
    expect(await verify(Buffer.from(raw.replace('Subject: Spring', 'Subject: Autumn')))).toBe('fail');
  });

  it('leaves to nodemailer what it does not build: non-ASCII addresses, line breaks in headers', () => {
    expect(built(payload({ from: '"Zoë" <news@acme.test>' }))).toBeNull();
    expect(built(payload({ to: 'zoë@exämple.org' }))).toBeNull();
    expect(built(payload({ subject: 'Hello\r\nBcc: victim@example.org' }))).toBeNull();
    expect(built(payload({ headers: { 'X-Note': 'a\r\nBcc: b@example.org' } }))).toBeNull();
    expect(built(payload({ headers: { 'Bad Name': 'x' } }))).toBeNull();
  });

  it('without a key, sends the same message unsigned', async () => {
    const raw = built(payload({ dkim: null }))!;
    expect(raw.toString('utf8')).not.toMatch(/^DKIM-Signature/im);
    expect(seen(await simpleParser(raw)).subject).toBe('Spring is here, Ada');
  });
});
