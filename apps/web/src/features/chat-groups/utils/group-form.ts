// The chat group form's model. People edit drafts (a select's options as lines of text, a flag that
// lets a new field's name follow its label); the resolver turns drafts into the save request and
// validates it with the shared contract, so the form shows the server's own rules and messages.
import { toNestErrors } from '@hookform/resolvers';
import {
  ZSaveChatGroupRequest,
  ZUpdateWidgetSettingsRequest,
  type TChatGroup,
  type TSaveChatGroupRequest,
  type TVisitorFormField,
} from '@titan/contracts';
import type { FieldError, FieldErrors, FieldPath, Resolver } from 'react-hook-form';
import type { z } from 'zod';

import type { TVisitorFieldDraft } from '../../../lib/visitor-fields';
import { CHAT_GROUPS_STRINGS } from '../strings';
import { DEFAULT_COLOR } from './color';

export type { TVisitorFieldDraft };

export type TGroupFormValues = {
  name: string;
  slug: string;
  greeting: string;
  color: string;
  launcher_position: TChatGroup['launcher_position'];
  allowed_origins: string[];
  visitor_form: TVisitorFieldDraft[];
};

export type TGroupRequest = z.output<typeof ZSaveChatGroupRequest>;

/** One allowed origin as the contracts check it (https://host[:port], lowercased). */
export const ZOrigin = ZUpdateWidgetSettingsRequest.shape.allowed_origins.unwrap().element;
export const ORIGINS_MAX = 50;
export const VISITOR_FIELDS_MAX = 20;

export function toFormValues(group?: TChatGroup): TGroupFormValues {
  if (!group) {
    return {
      name: '',
      slug: '',
      greeting: '',
      color: DEFAULT_COLOR,
      launcher_position: 'right',
      allowed_origins: [],
      visitor_form: [],
    };
  }
  return {
    name: group.name,
    slug: group.slug,
    greeting: group.greeting,
    color: group.color,
    launcher_position: group.launcher_position,
    allowed_origins: [...group.allowed_origins],
    visitor_form: group.visitor_form.map((field) => ({
      label: field.label,
      name: field.name,
      type: field.type,
      required: field.required,
      options: (field.options ?? []).join('\n'),
      // Saved names key the answers already collected: they never change by themselves.
      autoName: false,
    })),
  };
}

export function optionLines(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
}

/** The visitor form as the API takes it: options only for a select. */
export function toVisitorForm(drafts: readonly TVisitorFieldDraft[]): TVisitorFormField[] {
  return drafts.map(({ label, name, type, required, options }) => ({
    label,
    name,
    type,
    required,
    ...(type === 'select' ? { options: optionLines(options) } : {}),
  }));
}

export function toSaveRequest(values: TGroupFormValues): TSaveChatGroupRequest {
  return { ...values, visitor_form: toVisitorForm(values.visitor_form) };
}

type TIssue = { path: PropertyKey[]; message: string; code: string };

/** Rules of the form beyond the contract: unique field names, and a select needs its choices. */
function formIssues(values: TGroupFormValues): TIssue[] {
  const issues: TIssue[] = [];
  const seen = new Set<string>();
  values.visitor_form.forEach((field, index) => {
    const name = field.name.trim();
    if (name && seen.has(name))
      issues.push({
        path: ['visitor_form', index, 'name'],
        message: CHAT_GROUPS_STRINGS.visitorForm.duplicateName,
        code: 'custom',
      });
    seen.add(name);
    if (field.type === 'select' && optionLines(field.options).length === 0)
      issues.push({
        path: ['visitor_form', index, 'options'],
        message: CHAT_GROUPS_STRINGS.visitorForm.optionsRequired,
        code: 'custom',
      });
  });
  return issues;
}

/** Where an issue shows: one option's problem is shown on the options box as a whole. */
function formPath(path: PropertyKey[]): string {
  const shown = path[0] === 'visitor_form' && path[2] === 'options' ? path.slice(0, 3) : path;
  return shown.map(String).join('.');
}

export const groupFormResolver: Resolver<TGroupFormValues, unknown, TGroupRequest> = (
  values,
  _context,
  options,
) => {
  const parsed = ZSaveChatGroupRequest.safeParse(toSaveRequest(values));
  const issues: TIssue[] = [...(parsed.success ? [] : parsed.error.issues), ...formIssues(values)];
  if (parsed.success && issues.length === 0) return { values: parsed.data, errors: {} };
  const flat: Record<string, FieldError> = {};
  for (const issue of issues) {
    const path = formPath(issue.path);
    flat[path] ??= { type: issue.code, message: issue.message };
  }
  return { values: {}, errors: toNestErrors(flat as FieldErrors, options) };
};

/** Every path a 400 answer may name for this form, for applyApiErrorToForm. */
export function groupFormFieldPaths(values: TGroupFormValues): FieldPath<TGroupFormValues>[] {
  return [
    'name',
    'slug',
    'greeting',
    'color',
    'launcher_position',
    'allowed_origins',
    ...values.allowed_origins.map((_, i) => `allowed_origins.${i}` as const),
    ...values.visitor_form.flatMap((_, i) =>
      (['label', 'name', 'type', 'required', 'options'] as const).map(
        (key) => `visitor_form.${i}.${key}` as const,
      ),
    ),
  ];
}
