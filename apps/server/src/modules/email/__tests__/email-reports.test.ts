// Reading what comes back: DSNs and ARF reports as other mail systems write them, VERP addresses,
// and the unsubscribe token (no database needed).
import { describe, expect, it } from 'vitest';
import { buildArf, buildDsn } from '@titan/smtp-sink';
import { parseInboundReport, parseVerpAddress } from '../email.bounces';
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
      reportingMta: 'mx.example.net',
      recipients: [
        {
          finalRecipient: 'gone@example.net',
          action: 'failed',
          status: '5.2.1',
          diagnosticCode: '550 5.2.1 The email account that you tried to reach is disabled',
        },
      ],
    });
  });

  it('takes only VERP and unsubscribe addresses with a send id', () => {
    const id = '0b7c8a9e-1f2d-4e3c-9a8b-7c6d5e4f3a2b';
    expect(parseVerpAddress(`bounce+${id}@bounces.acme.test`)).toEqual({ kind: 'bounce', sendId: id });
    expect(parseVerpAddress(`Unsubscribe+${id.toUpperCase()}@x.test`)).toEqual({
      kind: 'unsubscribe',
      sendId: id,
    });
    expect(parseVerpAddress('postmaster@bounces.acme.test')).toBeNull();
    expect(parseVerpAddress(`bounce+${id}x@bounces.acme.test`)).toBeNull();
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
