// Reading what comes back: DSNs and ARF reports as other mail systems write them, VERP addresses,
// and the unsubscribe token (no database needed).
import { describe, expect, it } from 'vitest';
import { buildArf, buildDsn } from '@titan/smtp-sink';
import { bounceClass, parseInboundReport, parseVerpAddress } from '../email.bounces';
import * as samples from './bounce-samples';
import { UnsubscribeTokens } from '../unsubscribe-tokens';

const original = Buffer.from('From: a@acme.test\r\nTo: u@b.test\r\nSubject: Hi\r\n\r\nbody\r\n');

describe('inbound reports', () => {
  it('reads a hard and a soft DSN, and an ARF complaint', async () => {
    const hard = await parseInboundReport(
      Buffer.from(buildDsn({ returnPath: 'bounce+x@r.test', recipient: 'u@b.test', original, soft: false })),
    );
    expect(hard).toMatchObject({
      kind: 'dsn',
      reportingMta: 'smtp-sink.localhost',
      recipients: [{ finalRecipient: 'u@b.test', action: 'failed', status: '5.1.1' }],
    });
    expect(hard.kind === 'dsn' && hard.recipients[0]!.diagnosticCode).toMatch(/^550 5\.1\.1 .*User unknown/);
    const soft = await parseInboundReport(
      Buffer.from(buildDsn({ returnPath: 'bounce+x@r.test', recipient: 'u@b.test', original, soft: true })),
    );
    expect(soft).toMatchObject({ kind: 'dsn', recipients: [{ action: 'delayed', status: '4.4.1' }] });
    const arf = await parseInboundReport(
      Buffer.from(buildArf({ returnPath: 'bounce+x@r.test', recipient: 'u@b.test', original })),
    );
    expect(arf).toMatchObject({ kind: 'complaint', feedbackType: 'abuse', originalRcptTo: '<u@b.test>' });
  });

  it('finds a base64 delivery-status part nested in multipart/mixed, with folded fields', async () => {
    const status = Buffer.from(
      'Reporting-MTA: dns; mx.example.net\r\n\r\nFinal-Recipient: rfc822; gone@example.net\r\nAction: failed\r\nStatus: 5.2.1\r\nDiagnostic-Code: smtp; 550 5.2.1 The email account that you tried\r\n to reach is disabled\r\n',
    ).toString('base64');
    const raw = [
      'From: MAILER-DAEMON@mx.example.net',
      'Subject: Delivery Status Notification (Failure)',
      'MIME-Version: 1.0',
      'Content-Type: multipart/mixed; boundary=outer',
      '',
      '--outer',
      'Content-Type: multipart/report; report-type=delivery-status; boundary="inner"',
      '',
      '--inner',
      'Content-Type: text/plain',
      '',
      'Failed.',
      '--inner',
      'Content-Type: message/delivery-status',
      'Content-Transfer-Encoding: base64',
      '',
      status,
      '--inner--',
      '--outer--',
      '',
    ].join('\r\n');
    const report = await parseInboundReport(Buffer.from(raw));
    expect(report).toEqual({
      kind: 'dsn',
      format: 'rfc3464',
      reportingMta: 'mx.example.net',
      originalMessageId: null,
      recipients: [
        {
          finalRecipient: 'gone@example.net',
          originalRecipient: null,
          action: 'failed',
          status: '5.2.1',
          diagnosticCode: '550 5.2.1 The email account that you tried to reach is disabled',
        },
      ],
    });
  });
});

const sample = {
  returnPath: 'bounce+0b7c8a9e1f2d4e3c9a8b7c6d5e4f3a2b.0123456789abcdef@bounces.acme.test',
  recipient: 'Nobody@Example.net',
  messageId: '<0b7c8a9e-1f2d-4e3c-9a8b-7c6d5e4f3a2b@acme.test>',
};
const classOf = (report: Awaited<ReturnType<typeof parseInboundReport>>) =>
  report.kind === 'dsn' ? bounceClass(report.recipients[0]!) : null;

describe('bounces written for people only (no RFC 3464 part)', () => {
  it.each([
    [
      'qmail, the remote server’s reply',
      samples.qmailRemote,
      'qmail',
      '5.1.1',
      /^550 5\.1\.1 <Nobody@Example\.net>\.\.\. User unknown$/,
      'hard',
    ],
    [
      'qmail, its own status (#5.2.2): over quota',
      samples.qmailOverQuota,
      'qmail',
      '5.2.2',
      /^user is over quota \(#5\.2\.2\)$/,
      'soft',
    ],
    [
      'classic Exim',
      samples.eximClassic,
      'exim',
      '5.1.1',
      /^550 5\.1\.1 <Nobody@Example\.net>: Recipient address rejected: User unknown/,
      'hard',
    ],
    [
      'older Gmail, failed permanently',
      samples.gmailOld,
      'gmail',
      '5.1.1',
      /^550 550 5\.1\.1 <Nobody@Example\.net>: Recipient address rejected/,
      'hard',
    ],
    [
      'older Gmail, delayed',
      samples.gmailOldDelayed,
      'gmail',
      '4.7.0',
      /^421 4\.7\.0 Try again later/,
      'soft',
    ],
    [
      'Exchange 2003',
      samples.exchange2003,
      'exchange',
      '5.1.1',
      /^The e-mail account does not exist at the organization this message was sent to\. .*<mail\.example\.com #5\.1\.1>$/,
      'hard',
    ],
  ] as const)(
    'reads %s: the recipient, the server’s words, the original Message-ID',
    async (_name, build, format, status, words, kind) => {
      const report = await parseInboundReport(Buffer.from(build(sample)));
      expect(report).toMatchObject({
        kind: 'dsn',
        format,
        originalMessageId: sample.messageId,
        recipients: [{ finalRecipient: sample.recipient, status }],
      });
      expect(report.kind === 'dsn' && report.recipients[0]!.diagnosticCode).toMatch(words);
      expect(classOf(report)).toBe(kind);
    },
  );
});

describe('a full mailbox (X.2.2) is a soft bounce', () => {
  it.each([
    ['Gmail', samples.gmailFull],
    ['iCloud', samples.icloudFull],
    ['Outlook.com (Status 5.0.0, 5.2.2 in its words)', samples.outlookFull],
  ] as const)('%s', async (_name, build) => {
    const report = await parseInboundReport(Buffer.from(build(sample)));
    expect(report).toMatchObject({
      kind: 'dsn',
      originalMessageId: sample.messageId,
      recipients: [{ finalRecipient: sample.recipient, action: 'failed' }],
    });
    expect(classOf(report)).toBe('soft');
  });

  it('classifies by the enhanced status, then the basic reply', () => {
    const c = (status: string | null, diagnosticCode: string | null, action = 'failed') =>
      bounceClass({ action, status, diagnosticCode });
    expect(c('5.1.1', '550 5.1.1 User unknown')).toBe('hard');
    expect(c('5.2.2', '552 5.2.2 Mailbox full')).toBe('soft');
    expect(c('5.3.1', '452 5.3.1 Mail system full')).toBe('soft');
    expect(c('4.4.1', null)).toBe('soft');
    expect(c('4.2.2', null, 'delayed')).toBe('soft');
    expect(c('5.0.0', '552 Requested mail action aborted: exceeded storage allocation')).toBe('soft');
    expect(c('5.0.0', '550 Requested action not taken: mailbox unavailable')).toBe('hard');
    expect(c('5.0.0', '550 5.1.1 unknown user')).toBe('hard');
    expect(c(null, null)).toBe('hard');
    expect(c('2.0.0', null, 'delivered')).toBe('delivered');
  });
});

describe('VERP addresses', () => {
  const tokens = new UnsubscribeTokens('a'.repeat(40));
  const id = '0b7c8a9e-1f2d-4e3c-9a8b-7c6d5e4f3a2b';

  it('are signed: only an address Titan made names a send, whatever the case it comes back in', () => {
    const bounce = tokens.verpAddress('bounce', id, 'bounces.acme.test');
    const unsubscribe = tokens.verpAddress('unsubscribe', id, 'bounces.acme.test');
    expect(bounce).toMatch(/^bounce\+0b7c8a9e1f2d4e3c9a8b7c6d5e4f3a2b\.[0-9a-z]{16}@bounces\.acme\.test$/);
    // RFC 5321 §4.5.3.1.1: a local part holds at most 64 octets.
    for (const a of [bounce, unsubscribe]) expect(a.slice(0, a.indexOf('@')).length).toBeLessThanOrEqual(64);
    expect(parseVerpAddress(tokens, bounce)).toEqual({ kind: 'bounce', sendId: id });
    expect(parseVerpAddress(tokens, unsubscribe)).toEqual({ kind: 'unsubscribe', sendId: id });
    expect(parseVerpAddress(tokens, bounce.toUpperCase())).toEqual({ kind: 'bounce', sendId: id });
  });

  it('refuse the unsigned form, an altered id, MAC or kind, and another secret', () => {
    const bounce = tokens.verpAddress('bounce', id, 'bounces.acme.test');
    const [local, host] = bounce.split('@') as [string, string];
    const [hex, mac] = local.slice('bounce+'.length).split('.') as [string, string];
    for (const forged of [
      `bounce+${id}@bounces.acme.test`,
      `unsubscribe+${id}@bounces.acme.test`,
      `bounce+${hex}@${host}`,
      `bounce+${hex.replace(/^0/, '1')}.${mac}@${host}`,
      `bounce+${hex}.${mac.replace(/^./, (c) => (c === 'a' ? 'b' : 'a'))}@${host}`,
      `unsubscribe+${hex}.${mac}@${host}`,
      `bounce+${hex}.${mac}x@${host}`,
      'postmaster@bounces.acme.test',
    ])
      expect(parseVerpAddress(tokens, forged), forged).toBeNull();
    expect(parseVerpAddress(new UnsubscribeTokens('b'.repeat(40)), bounce)).toBeNull();
  });
});

describe('unsubscribe tokens', () => {
  const tokens = new UnsubscribeTokens('a'.repeat(40));
  const id = '0b7c8a9e-1f2d-4e3c-9a8b-7c6d5e4f3a2b';

  it('carry the send id and refuse any alteration or another secret', () => {
    const token = tokens.sign(id);
    expect(tokens.verify(token)).toBe(id);
    const [hex, mac] = token.split('.') as [string, string];
    expect(tokens.verify(`${hex.replace(/^0/, '1')}.${mac}`)).toBeNull();
    expect(tokens.verify(`${hex}.${mac.slice(1)}A`)).toBeNull();
    expect(tokens.verify(`${token}.extra`)).toBeNull();
    expect(new UnsubscribeTokens('b'.repeat(40)).verify(token)).toBeNull();
    expect(tokens.verify(undefined)).toBeNull();
  });
});
