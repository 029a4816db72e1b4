// The inbound spam score (email.spam.ts), rule by rule on mail as mailparser reads it: what a
// clean mail from an authenticated sender scores, and what each signal adds and says.
import { simpleParser } from 'mailparser';
import { describe, expect, it } from 'vitest';
import { SPAM_THRESHOLD, spamInputOf, spamScore, type AuthResults } from '../email.spam';

const PASS: AuthResults = { spf: 'pass', dkim: 'pass', dmarc: 'pass' };

async function score(raw: string, auth: AuthResults = PASS) {
  const mail = await simpleParser(Buffer.from(raw.replace(/\n/g, '\r\n')));
  return spamScore(spamInputOf(mail), auth);
}

const HEAD =
  'From: Dana <dana@customer.test>\nTo: support@acme.test\nDate: Mon, 2 Nov 2026 10:00:00 +0000\nMessage-ID: <a@customer.test>\n';

describe('spam score', () => {
  it('a plain authenticated mail scores nothing', async () => {
    expect(await score(`${HEAD}Subject: Broken widget\n\nIt broke again.\n`)).toEqual({
      score: 0,
      spam: false,
      reasons: [],
    });
  });

  it('failed DMARC, or SPF failing without DKIM, is spam alone', async () => {
    const mail = `${HEAD}Subject: Hello\n\nHi\n`;
    expect(await score(mail, { spf: 'fail', dkim: 'none', dmarc: 'fail' })).toMatchObject({
      spam: true,
      reasons: ['DMARC failed', 'Neither SPF nor DKIM passed'].slice(0, 1),
    });
    expect(await score(mail, { spf: 'fail', dkim: 'none', dmarc: 'none' })).toMatchObject({ spam: true });
    expect(await score(mail, { spf: 'fail', dkim: 'pass', dmarc: 'pass' })).toMatchObject({ spam: false });
  });

  it('adds up content signals: a deceptive link, a name showing another address, phishing words', async () => {
    const mail =
      'From: "security@bank.test" <alerts@mailer.example>\nTo: support@acme.test\nDate: Mon, 2 Nov 2026 10:00:00 +0000\nMessage-ID: <b@mailer.example>\nSubject: Verify your account\nContent-Type: text/html\n\n' +
      '<p>Your account will be suspended. <a href="http://203.0.113.9/login">https://bank.test/login</a></p>\n';
    const verdict = await score(mail, { spf: 'pass', dkim: 'none', dmarc: 'none' });
    expect(verdict.spam).toBe(true);
    expect(verdict.score).toBeGreaterThanOrEqual(SPAM_THRESHOLD);
    expect(verdict.reasons).toEqual(
      expect.arrayContaining([
        'The sender’s name shows another address (security@bank.test)',
        'A link shows one address and goes to another (bank.test → 203.0.113.9)',
        'A link goes to a bare IP address (203.0.113.9)',
        'Words phishing uses (“verify your account”)',
      ]),
    );
  });

  it('an executable attachment is spam; a shouted subject, no Message-ID or no Date only add a point', async () => {
    const attached =
      `${HEAD}Subject: Invoice\nContent-Type: multipart/mixed; boundary=x\n\n--x\nContent-Type: text/plain\n\nSee attached\n--x\n` +
      'Content-Type: application/octet-stream\nContent-Disposition: attachment; filename="invoice.pdf.exe"\nContent-Transfer-Encoding: base64\n\nTVqQAAMAAAAEAAAA\n--x--\n';
    expect(await score(attached)).toMatchObject({
      spam: true,
      reasons: ['An executable attachment (invoice.pdf.exe)'],
    });
    const bare = 'From: dana@customer.test\nTo: support@acme.test\nSubject: WHERE IS MY ORDER\n\nHello\n';
    expect(await score(bare)).toEqual({
      score: 3,
      spam: false,
      reasons: ['The subject is in capitals', 'No Message-ID', 'No Date'],
    });
  });
});
