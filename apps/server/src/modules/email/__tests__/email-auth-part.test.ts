// What mailauth reads of an inbound mail (email.inbound-parse.ts, authenticatedPart): the whole
// message when its header carries a DKIM or ARC signature, the header alone otherwise — and the
// SPF, DKIM and DMARC results are the same as mailauth gives on the whole message, over real DNS
// (tools/dns-sim), for a signed mail (valid and tampered), an unsigned one and a failing sender.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { authenticate } from 'mailauth';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDnsSim, type DnsSim } from '@titan/dns-sim';
import { authenticatedPart, mailauthResolver } from '../email.inbound-parse';

let dns: DnsSim;
const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const pem = privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
const record = `v=DKIM1; k=rsa; p=${publicKey.export({ type: 'spki', format: 'der' }).toString('base64')}`;

async function rawMail(options: { sign: boolean; from?: string }): Promise<Buffer> {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true });
  const info = await transport.sendMail({
    from: options.from ?? 'Grace Hopper <grace@customer.test>',
    to: 'support@acme.test',
    subject: 'Order 1042',
    text: 'Where is my order?\n'.repeat(200),
    attachments: [{ filename: 'photo.bin', content: randomBytes(20_000) }],
    ...(options.sign ? { dkim: { domainName: 'customer.test', keySelector: 's1', privateKey: pem } } : {}),
  });
  return info.message as Buffer;
}

const results = async (raw: Buffer, mailFrom = 'grace@customer.test') => {
  const r = await authenticate(raw, {
    ip: '127.0.0.1',
    helo: 'mail.customer.test',
    sender: mailFrom,
    mta: 'titan',
    disableArc: true,
    disableBimi: true,
    resolver: mailauthResolver({ DNS_SERVERS: [dns.address], DNS_TIMEOUT_MS: 4000 }) as never,
  });
  return {
    spf: r.spf && r.spf.status.result,
    dkim: r.dkim.results.map((d) => [d.status.result, d.signingDomain]),
    dmarc: r.dmarc && r.dmarc.status.result,
    from: r.dkim.headerFrom,
  };
};

beforeAll(async () => {
  dns = await startDnsSim();
  dns.setZone('customer.test');
  dns.setRecord('customer.test', 'TXT', 'v=spf1 ip4:127.0.0.1 -all');
  dns.setRecord('s1._domainkey.customer.test', 'TXT', record);
  dns.setRecord('_dmarc.customer.test', 'TXT', 'v=DMARC1; p=reject');
  dns.setZone('elsewhere.test');
  dns.setRecord('elsewhere.test', 'TXT', 'v=spf1 ip4:192.0.2.1 -all');
  dns.setRecord('_dmarc.elsewhere.test', 'TXT', 'v=DMARC1; p=reject');
});
afterAll(async () => {
  await dns?.close();
});

describe('what authentication reads of a mail', () => {
  it('a signed mail whole; its results those of the whole mail, valid or tampered', async () => {
    const raw = await rawMail({ sign: true });
    expect(authenticatedPart(raw)).toBe(raw);
    expect(await results(authenticatedPart(raw))).toMatchObject({ dkim: [['pass', 'customer.test']] });
    const tampered = Buffer.from(
      raw.toString('latin1').replace('Where is my order?', 'Wire the money'),
      'latin1',
    );
    expect(authenticatedPart(tampered)).toBe(tampered);
    expect((await results(authenticatedPart(tampered))).dkim[0]![0]).not.toBe('pass');
  });

  it('an unsigned mail by its header alone, to the results of the whole mail', async () => {
    const raw = await rawMail({ sign: false });
    const part = authenticatedPart(raw);
    expect(part.length).toBeLessThan(raw.length / 10);
    expect(raw.subarray(0, part.length).equals(part)).toBe(true);
    const whole = await results(raw);
    expect(whole).toMatchObject({ spf: 'pass', dmarc: 'pass', from: ['grace@customer.test'] });
    expect(await results(part)).toEqual(whole);

    const forged = await rawMail({ sign: false, from: 'Boss <boss@elsewhere.test>' });
    const forgedWhole = await results(forged, 'boss@elsewhere.test');
    expect(forgedWhole).toMatchObject({ spf: 'fail', dmarc: 'fail' });
    expect(await results(authenticatedPart(forged), 'boss@elsewhere.test')).toEqual(forgedWhole);
  });

  it('a message with no blank line after its header is read whole', () => {
    const raw = Buffer.from('From: a@b.test\r\nSubject: x\r\n');
    expect(authenticatedPart(raw)).toBe(raw);
  });
});
