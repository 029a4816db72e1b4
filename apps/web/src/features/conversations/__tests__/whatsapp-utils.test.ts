import { describe, expect, it } from 'vitest';

import { untilExpiry } from '../api/get-whatsapp-window';
import { failureReason, messageSummary, repliedMessageId } from '../utils/display';
import { fillPlaceholders } from '../utils/whatsapp-template';

describe('the 24-hour window', () => {
  const now = Date.parse('2026-03-02T10:00:00.000Z');

  it('refetches just after an open window expires', () => {
    expect(
      untilExpiry(
        { open: true, expires_at: '2026-03-02T11:00:00.000Z', last_customer_message_at: null },
        now,
      ),
    ).toBe(3600_000 + 1000);
  });

  it('waits for nothing when the window is closed or has no expiry', () => {
    expect(untilExpiry({ open: false, expires_at: null, last_customer_message_at: null }, now)).toBe(false);
    expect(untilExpiry({ open: true, expires_at: null, last_customer_message_at: null }, now)).toBe(false);
    expect(untilExpiry(undefined, now)).toBe(false);
  });
});

describe('WhatsApp message details', () => {
  it('reads the replied wamid from Meta (context.id) or as sent (context.message_id)', () => {
    expect(repliedMessageId({ meta_data: { context: { from: '1555', id: 'wamid.A' } } })).toBe('wamid.A');
    expect(repliedMessageId({ meta_data: { context: { message_id: 'wamid.B' } } })).toBe('wamid.B');
    expect(repliedMessageId({ meta_data: { context: { forwarded: true } } })).toBeNull();
    expect(repliedMessageId({ meta_data: {} })).toBeNull();
  });

  it('summarises a message by its text, caption or kind', () => {
    expect(messageSummary({ content: ' Hi ', meta_data: {} })).toBe('Hi');
    expect(messageSummary({ content: '', meta_data: { type: 'image', image: { caption: 'A box' } } })).toBe(
      'A box',
    );
    expect(messageSummary({ content: '', meta_data: { type: 'video', video: { id: 'm' } } })).toBe('[video]');
  });

  it("words a failure from Meta's first error", () => {
    expect(
      failureReason({
        meta_data: {
          errors: [{ code: 131026, title: 'Message undeliverable', message: 'Message undeliverable' }],
        },
      }),
    ).toBe('Message undeliverable (131026)');
    expect(
      failureReason({
        meta_data: {
          errors: [{ code: 131047, title: 'Re-engagement', error_data: { details: 'Window closed.' } }],
        },
      }),
    ).toBe('Re-engagement — Window closed. (131047)');
    expect(failureReason({ meta_data: { errors: [{ code: 500 }] } })).toBe('Error 500');
    expect(failureReason({ meta_data: { errors: [] } })).toBeNull();
    expect(failureReason({ meta_data: {} })).toBeNull();
  });
});

describe('template placeholders', () => {
  it('fills positional and named placeholders, keeping unanswered ones', () => {
    const values: Record<string, string> = { '1': 'Maria', first_name: 'Ana' };
    expect(fillPlaceholders('Hi {{1}}, order {{2}}', (n) => values[n])).toBe('Hi Maria, order {{2}}');
    expect(fillPlaceholders('Hola {{ first_name }}', (n) => values[n])).toBe('Hola Ana');
  });
});
