import { DEFAULT_AI_RESPONDER } from '@titan/contracts';
import type { ResolverOptions } from 'react-hook-form';
import { describe, expect, it } from 'vitest';

import { readableTextColor } from '../utils/color';
import {
  groupFormResolver,
  toFormValues,
  toSaveRequest,
  type TGroupFormValues,
  type TVisitorFieldDraft,
} from '../utils/group-form';
import { fieldNameFromLabel } from '../../../lib/visitor-fields';
import { slugFromName } from '../utils/slug';

const OPTIONS = { fields: {}, shouldUseNativeValidation: false } as ResolverOptions<TGroupFormValues>;

function values(overrides: Partial<TGroupFormValues> = {}): TGroupFormValues {
  return { ...toFormValues(), name: 'Support', slug: 'support', ...overrides };
}

function field(overrides: Partial<TVisitorFieldDraft> = {}): TVisitorFieldDraft {
  return {
    label: 'Company',
    name: 'company',
    type: 'text',
    required: false,
    options: '',
    autoName: false,
    ...overrides,
  };
}

async function errorsOf(input: TGroupFormValues) {
  const result = await groupFormResolver(input, undefined, OPTIONS);
  return result.errors as Record<string, unknown>;
}

describe('suggestions', () => {
  it('suggests a slug the contract accepts from a group name', () => {
    expect(slugFromName('Support & Sales (EU)')).toBe('support-sales-eu');
    expect(slugFromName('  Café Crème  ')).toBe('cafe-creme');
    expect(slugFromName('---')).toBe('');
    expect(slugFromName('x'.repeat(60))).toHaveLength(50);
    expect(slugFromName(`${'a'.repeat(49)} b`)).toBe('a'.repeat(49));
  });

  it('suggests a field name from a label', () => {
    expect(fieldNameFromLabel('Company name')).toBe('company_name');
    expect(fieldNameFromLabel('E-mail address?')).toBe('e_mail_address');
    expect(fieldNameFromLabel('2nd phone')).toBe('f_2nd_phone');
    expect(fieldNameFromLabel('!!!')).toBe('');
  });

  it('picks readable text for a brand colour', () => {
    expect(readableTextColor('#111827')).toBe('#ffffff');
    expect(readableTextColor('#fde047')).toBe('#111827');
  });
});

describe('the group form resolver', () => {
  it('turns drafts into the save request: options only for a select, one per non-empty line', async () => {
    const input = values({
      allowed_origins: ['https://Shop.Example.com'],
      visitor_form: [
        field({ type: 'select', label: 'Plan', name: 'plan', options: ' Free \n\nPro\n' }),
        field({ type: 'text', options: 'left over from a select' }),
      ],
    });
    const result = await groupFormResolver(input, undefined, OPTIONS);
    expect(result.errors).toEqual({});
    expect(result.values).toEqual({
      name: 'Support',
      slug: 'support',
      greeting: '',
      color: '#111827',
      launcher_position: 'right',
      // The contract lowercases origins.
      allowed_origins: ['https://shop.example.com'],
      visitor_form: [
        { label: 'Plan', name: 'plan', type: 'select', required: false, options: ['Free', 'Pro'] },
        { label: 'Company', name: 'company', type: 'text', required: false },
      ],
      // Auto-assignment stays off until someone turns it on, at the default capacity.
      assignment: { mode: 'off', capacity: 10 },
      // So does the AI first responder.
      ai_responder: DEFAULT_AI_RESPONDER,
      // No business hours, away message, SLA or CSAT until set.
      business_hours: null,
      away_message: '',
      sla: { first_response_minutes: null, resolution_minutes: null },
      csat: false,
    });
    expect(toSaveRequest(input).visitor_form?.[1]).not.toHaveProperty('options');
  });

  it('shows the contract’s messages on the fields they concern', async () => {
    const errors = await errorsOf(
      values({
        slug: 'Not A Slug',
        color: 'blue',
        allowed_origins: ['https://ok.example.com', 'example.com/path'],
        visitor_form: [field({ name: '1abc' })],
      }),
    );
    expect(errors).toMatchObject({
      slug: { message: 'Use lowercase letters, digits and hyphens (up to 50).' },
      color: { message: 'Enter a colour like #1f6feb.' },
      allowed_origins: [undefined, { message: 'Enter an origin like https://www.example.com (no path).' }],
      visitor_form: [{ name: { message: 'Use lowercase letters, digits and _ (start with a letter).' } }],
    });
  });

  it('needs options for a select and a distinct name for each field', async () => {
    const errors = await errorsOf(
      values({
        visitor_form: [
          field({ type: 'select', name: 'plan', options: '\n  \n' }),
          field({ name: 'company' }),
          field({ name: 'company' }),
        ],
      }),
    );
    expect(errors).toMatchObject({
      visitor_form: [
        { options: { message: 'Add at least one option.' } },
        undefined,
        { name: { message: 'Each field needs its own name.' } },
      ],
    });
  });

  it('shows a problem with one option on the options box', async () => {
    const errors = await errorsOf(
      values({ visitor_form: [field({ type: 'select', name: 'plan', options: `ok\n${'x'.repeat(101)}` })] }),
    );
    expect(errors).toMatchObject({
      visitor_form: [{ options: { message: 'Ensure this field has no more than 100 characters.' } }],
    });
  });

  it('refuses an empty label with the shared blank-field message', async () => {
    const errors = await errorsOf(values({ name: '', visitor_form: [field({ label: ' ' })] }));
    expect(errors).toMatchObject({
      name: { message: 'This field may not be blank.' },
      visitor_form: [{ label: { message: 'This field may not be blank.' } }],
    });
  });
});
