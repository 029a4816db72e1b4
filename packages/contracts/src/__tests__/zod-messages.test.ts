import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  DATE_MESSAGE,
  DATE_RANGE_MESSAGE,
  ZConversationFilter,
  ZEnvelope,
  ZIdParams,
  ZRecordAnalyticsEventRequest,
  ZWhatsappLogFilter,
} from '../index';

const messages = (schema: z.ZodType, value: unknown) =>
  schema.safeParse(value).error?.issues.map((i) => [i.path.join('.'), i.message]) ?? [];

describe('field messages', () => {
  const form = z.object({
    email: z.email(),
    password: z.string().min(8),
    name: z.string().min(1),
    age: z.number().int().min(18).max(120),
    role: z.enum(['owner', 'admin', 'agent']),
  });

  it('says what to fix, field by field', () => {
    expect(messages(form, { email: 'nope', password: 'short', name: '', age: 12, role: 'boss' })).toEqual([
      ['email', 'Enter a valid email address.'],
      ['password', 'Ensure this field has at least 8 characters.'],
      ['name', 'This field may not be blank.'],
      ['age', 'Ensure this value is at least 18.'],
      ['role', 'Select a valid choice: owner, admin, agent.'],
    ]);
  });

  it('marks missing fields as required', () => {
    expect(messages(z.object({ email: z.email() }), {})).toEqual([['email', 'This field is required.']]);
  });

  it("never lets one of zod's own texts through, whatever the issue", () => {
    const own = z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('a').default('a') }),
      z.object({ kind: z.literal('b') }),
    ]);
    const cases: [z.ZodType, unknown, string][] = [
      [own, { kind: 'c' }, 'Select a valid choice: a, b.'],
      [z.union([z.string(), z.number()]), true, 'Enter a valid value.'],
      [z.number().multipleOf(5), 3, 'Ensure this value is a multiple of 5.'],
      [z.number().gt(0), 0, 'Ensure this value is greater than 0.'],
      [z.number().lt(9), 9, 'Ensure this value is less than 9.'],
      [z.array(z.string()).min(1), [], 'This list may not be empty.'],
      [z.array(z.string()).max(2), ['a', 'b', 'c'], 'Ensure this field has no more than 2 elements.'],
      [z.record(z.string().regex(/^a/), z.string()), { b: 'x' }, 'Enter a valid field name.'],
      [z.string().regex(/^a/), 'b', 'Enter a valid value.'],
      [z.string().refine(() => false), 'b', 'Enter a valid value.'],
      [z.string(), 1, 'Not a valid string.'],
      [z.array(z.string()), 'x', 'Expected a list of items.'],
      [z.object({}), 'x', 'Expected a dictionary of items.'],
      [z.set(z.number()), new Set(['x']), 'A valid number is required.'],
    ];
    for (const [schema, value, message] of cases) expect(messages(schema, value)[0]?.[1]).toBe(message);
  });

  it('keeps a message written on the schema itself', () => {
    expect(messages(z.string().min(3, { message: 'Too short, friend.' }), 'a')).toEqual([
      ['', 'Too short, friend.'],
    ]);
  });
});

describe('shared schemas', () => {
  it('accepts a browser error report and rejects extra properties', () => {
    expect(
      ZRecordAnalyticsEventRequest.safeParse({ event: 'ERROR', properties: { message: 'x' } }).success,
    ).toBe(true);
    expect(
      messages(ZRecordAnalyticsEventRequest, { event: 'ERROR', properties: { message: 'x', x: 1 } }),
    ).toEqual([['properties', 'Unknown field: x.']]);
    expect(
      ZRecordAnalyticsEventRequest.safeParse({ event: 'user_signed_up', properties: { message: 'x' } })
        .success,
    ).toBe(false);
  });

  it('wraps a result in the envelope', () => {
    const env = ZEnvelope(z.object({ id: z.number() }));
    expect(env.parse({ status: 200, message: 'OK', result: { id: 1 } })).toEqual({
      status: 200,
      message: 'OK',
      result: { id: 1 },
    });
  });
});

describe('bounds and dates', () => {
  it('says "greater than" of an exclusive minimum, so id=0 is not told to be at least 0', () => {
    expect(messages(ZIdParams, { id: '0' })).toEqual([['id', 'Ensure this value is greater than 0.']]);
    expect(messages(z.number().lt(5), 5)).toEqual([['', 'Ensure this value is less than 5.']]);
  });

  it('refuses date filters outside the years 1 to 9999, which PostgreSQL cannot compare with', () => {
    for (const bad of ['99999-01-01', '+010000-01-01T00:00:00Z', '-000001-01-01T00:00:00Z']) {
      expect(messages(ZConversationFilter, { created_at__gte: bad })).toEqual([
        ['created_at__gte', DATE_RANGE_MESSAGE],
      ]);
    }
    expect(messages(ZWhatsappLogFilter, { created_at__lte: 'yesterday' })).toEqual([
      ['created_at__lte', DATE_MESSAGE],
    ]);
    expect(messages(ZConversationFilter, { created_at__gte: '0001-01-01T00:00:00+01:00' })).toEqual([
      ['created_at__gte', DATE_RANGE_MESSAGE],
    ]);
    expect(ZConversationFilter.parse({ created_at__lte: '9999-12-31T23:59:59Z' }).created_at__lte).toEqual(
      new Date('9999-12-31T23:59:59Z'),
    );
  });

  it('reads dates strictly: days that do not exist and times without a zone are refused, not rolled over', () => {
    for (const bad of [
      '2025-02-30',
      '2025-02-29',
      '2025-04-31',
      '2025-00-10',
      '2025-1-5',
      '2025-01-01T24:00:00Z',
      '2025-01-01T10:60Z',
      '2025-01-01T10:00:00',
      '2025-01-01 10:00:00Z',
      'March 2, 2025',
      '1735689600000',
    ]) {
      expect(messages(ZConversationFilter, { created_at__gte: bad }), bad).toEqual([
        ['created_at__gte', DATE_MESSAGE],
      ]);
    }
    const read = (v: string) => ZConversationFilter.parse({ created_at__gte: v }).created_at__gte;
    expect(read('2024-02-29')).toEqual(new Date(Date.UTC(2024, 1, 29)));
    expect(read('2025-03-02T10:15Z')).toEqual(new Date(Date.UTC(2025, 2, 2, 10, 15)));
    expect(read('2025-03-02T10:15:30.250+02:00')).toEqual(new Date(Date.UTC(2025, 2, 2, 8, 15, 30, 250)));
  });
});
