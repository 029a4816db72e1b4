import type { TPublicMessage, TVisitorFormField } from '@titan/contracts';
import { describe, expect, it } from 'vitest';
import { readFrameConfig } from '../config';
import { formFieldErrors, mergeMessages, validateVisitorForm, visitorDetails } from '../state';

const TEXT = { required: 'This field is required.', invalidEmail: 'Enter a valid email address.' };

const fields: TVisitorFormField[] = [
  { name: 'name', label: 'Name', type: 'text', required: true },
  { name: 'email', label: 'Email', type: 'email', required: true },
  { name: 'order', label: 'Order', type: 'number', required: false },
  { name: 'terms', label: 'I agree', type: 'checkbox', required: true },
  { name: 'topic', label: 'Topic', type: 'select', required: false, options: ['A', 'B'] },
];

describe('the visitor form', () => {
  it('requires required fields (an unticked checkbox is empty) and checks email shape', () => {
    expect(validateVisitorForm(fields, { name: '  ', email: 'nope', terms: false }, TEXT)).toEqual({
      name: TEXT.required,
      email: TEXT.invalidEmail,
      terms: TEXT.required,
    });
    expect(validateVisitorForm(fields, { name: 'Vera', email: 'v@example.com', terms: true }, TEXT)).toEqual(
      {},
    );
  });

  it('sends name, email and phone as such and the rest as typed fields', () => {
    expect(
      visitorDetails(fields, {
        name: ' Vera ',
        email: 'v@example.com',
        order: '4711',
        terms: true,
        topic: '',
      }),
    ).toEqual({ name: 'Vera', email: 'v@example.com', fields: { order: 4711, terms: true } });
  });

  it('places server errors on standard and custom fields', () => {
    expect(
      formFieldErrors({ email: ['Enter a valid email address.'], 'fields.order': ['Bad.', 'x'] }),
    ).toEqual({
      email: 'Enter a valid email address.',
      order: 'Bad.',
    });
  });
});

describe('messages', () => {
  const message = (id: number, at: string, content = `m${id}`) =>
    ({ id, created_at: at, content }) as unknown as TPublicMessage;

  it('merge without duplicates, oldest first, a later copy winning', () => {
    const merged = mergeMessages(
      [message(2, '2025-01-01T10:01:00Z'), message(1, '2025-01-01T10:00:00Z')],
      [message(2, '2025-01-01T10:01:00Z', 'edited'), message(3, '2025-01-01T10:02:00Z')],
    );
    expect(merged.map((m) => [m.id, m.content])).toEqual([
      [1, 'm1'],
      [2, 'edited'],
      [3, 'm3'],
    ]);
  });
});

describe('where the chat runs', () => {
  it('reads the frame and hosted page paths, and the host origin only when embedded', () => {
    expect(
      readFrameConfig(
        new URL('https://t.example/widget/frame/ab%20c/support?host=https://shop.example'),
        true,
      ),
    ).toEqual({
      business: 'ab c',
      group: 'support',
      embedded: true,
      hostOrigin: 'https://shop.example',
      lang: null,
    });
    expect(readFrameConfig(new URL('https://t.example/widget/frame/abc'), true)).toEqual({
      business: 'abc',
      group: null,
      embedded: true,
      hostOrigin: null,
      lang: null,
    });
    expect(
      readFrameConfig(new URL('https://t.example/messages/chat/abc/g/sales/?host=https://x.example'), false),
    ).toEqual({ business: 'abc', group: 'sales', embedded: false, hostOrigin: null, lang: null });
    expect(readFrameConfig(new URL('https://t.example/widget/frame/abc?lang=es-MX'), true)?.lang).toBe(
      'es-MX',
    );
    expect(
      readFrameConfig(new URL('https://t.example/widget/frame/abc?host=https://x.example/path'), true)
        ?.hostOrigin,
    ).toBeNull();
    expect(readFrameConfig(new URL('https://t.example/elsewhere'), true)).toBeNull();
  });
});
