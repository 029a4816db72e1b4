// The SMS channel's rules that need no server: Twilio's signature, segments, keywords, statuses,
// and its configuration.
import { describe, expect, it } from 'vitest';
import { smsSegments } from '@titan/contracts';
import { parseStatusCallback, sendStatusOf } from '../../../channels/sms-twilio/sms-twilio.adapter';
import { isValidTwilioSignature, twilioSignature } from '../../../channels/sms-twilio/twilio-signature';
import { parseConfigEnv } from '../../../config';
import { keywordOf } from '../sms.webhook';

describe("Twilio's request signature", () => {
  const url = 'https://mycompany.com/myapp.php?foo=1&bar=2';
  const params = {
    CallSid: 'CA1234567890ABCDE',
    Caller: '+14158675309',
    Digits: '1234',
    From: '+14158675309',
    To: '+18005551212',
  };

  it('is the one of Twilio’s documented example', () => {
    expect(twilioSignature('12345', url, params)).toBe('RSOYDt4T1cUTdK1PDd93/VVr8B8=');
  });

  it('holds for the URL with or without its default port, and for nothing else', () => {
    const sig = twilioSignature('12345', url, params);
    expect(isValidTwilioSignature('12345', url, params, sig)).toBe(true);
    expect(
      isValidTwilioSignature('12345', 'https://mycompany.com:443/myapp.php?foo=1&bar=2', params, sig),
    ).toBe(true);
    expect(isValidTwilioSignature('12345', url, { ...params, Digits: '1235' }, sig)).toBe(false);
    expect(isValidTwilioSignature('54321', url, params, sig)).toBe(false);
    expect(isValidTwilioSignature('12345', url, params, undefined)).toBe(false);
    expect(isValidTwilioSignature('12345', `${url}&x=1`, params, sig)).toBe(false);
  });
});

describe('segments', () => {
  it.each([
    ['', 1, 'GSM-7'],
    ['a'.repeat(160), 1, 'GSM-7'],
    ['a'.repeat(161), 2, 'GSM-7'],
    ['a'.repeat(306), 2, 'GSM-7'],
    ['a'.repeat(307), 3, 'GSM-7'],
    // The extension table takes two septets each, and a pair is never split between parts.
    ['€'.repeat(80), 1, 'GSM-7'],
    ['a' + '€'.repeat(80), 2, 'GSM-7'],
    ['ł'.repeat(70), 1, 'UCS-2'],
    ['ł'.repeat(71), 2, 'UCS-2'],
    ['ł'.repeat(134), 2, 'UCS-2'],
    ['ł'.repeat(135), 3, 'UCS-2'],
    // An emoji is two UTF-16 units: 35 fit alone; past 70 units, 33 per part (no pair split).
    ['😀'.repeat(35), 1, 'UCS-2'],
    ['😀'.repeat(36), 2, 'UCS-2'],
  ])('%#: %j → %i (%s)', (body, segments, encoding) => {
    expect(smsSegments(body)).toMatchObject({ segments, encoding });
  });

  it('a pair at a part boundary moves whole to the next part', () => {
    // 152 septets then a 2-septet character: the pair starts part two.
    const split = smsSegments('a'.repeat(152) + '€' + 'a'.repeat(10));
    expect(split).toMatchObject({ units: 164, segments: 2, per_segment: 153 });
  });
});

describe('inbound keywords', () => {
  it.each([
    ['STOP', 'stop'],
    [' stop. ', 'stop'],
    ['Unsubscribe', 'stop'],
    ['end', 'stop'],
    ['START', 'start'],
    ['unstop', 'start'],
    ['help', 'help'],
    ['stop sending me these', null],
    ['Hello', null],
  ])('%j → %s', (body, keyword) => {
    expect(keywordOf(body)).toBe(keyword);
  });

  it('trusts Twilio’s OptOutType when it says', () => {
    expect(keywordOf('Arrêt', 'STOP')).toBe('stop');
  });
});

describe('status callbacks', () => {
  it('map Twilio’s statuses onto the SMS order and keep the error code', () => {
    expect(
      ['accepted', 'queued', 'sending', 'sent', 'delivered', 'undelivered', 'failed'].map(sendStatusOf),
    ).toEqual(['accepted', 'accepted', 'accepted', 'sent', 'delivered', 'failed', 'failed']);
    expect(sendStatusOf('received')).toBeNull();
    const event = parseStatusCallback({
      MessageSid: 'SM1',
      MessageStatus: 'undelivered',
      ErrorCode: '30005',
    });
    expect(event).toMatchObject({
      providerMessageId: 'SM1',
      type: 'failed',
      payload: { provider_status: 'undelivered', errors: [{ code: '30005' }] },
    });
    expect(parseStatusCallback({ MessageStatus: 'sent' })).toBeNull();
  });
});

describe('configuration', () => {
  it('SMS_API_URL defaults to Twilio and takes http:// only on this machine', () => {
    expect(parseConfigEnv({}).SMS_API_URL).toBe('https://api.twilio.com');
    expect(parseConfigEnv({ SMS_API_URL: 'http://127.0.0.1:4020/' }).SMS_API_URL).toBe(
      'http://127.0.0.1:4020',
    );
    expect(() => parseConfigEnv({ SMS_API_URL: 'http://twilio.example.com' })).toThrow(/SMS_API_URL/);
  });

  it('SMS_RETRY_DELAYS_MS stays within the recovery job’s minute', () => {
    expect(parseConfigEnv({}).SMS_RETRY_DELAYS_MS).toEqual([1000, 4000, 16000]);
    expect(() => parseConfigEnv({ SMS_RETRY_DELAYS_MS: '1000,60000' })).toThrow(/SMS_RETRY_DELAYS_MS/);
  });
});
