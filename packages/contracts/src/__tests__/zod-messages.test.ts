import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ZEnvelope, ZRecordAnalyticsEventRequest } from '../index';

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
