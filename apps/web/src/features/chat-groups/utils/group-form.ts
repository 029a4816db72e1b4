// The chat group form's model. People edit drafts (a select's options as lines of text, a flag that
// lets a new field's name follow its label); the resolver turns drafts into the save request and
// validates it with the shared contract, so the form shows the server's own rules and messages.
import { toNestErrors } from '@hookform/resolvers';
import {
  DEFAULT_AI_RESPONDER,
  DEFAULT_ASSIGNMENT,
  type TAiResponderSettings,
  ZSaveChatGroupRequest,
  type TAssignmentSettings,
  type TOpeningHours,
  ZUpdateWidgetSettingsRequest,
  type TChatGroupSettings,
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
  launcher_position: TChatGroupSettings['launcher_position'];
  allowed_origins: string[];
  visitor_form: TVisitorFieldDraft[];
  /** Auto-assignment: mode and capacity (open conversations of the group per member). */
  assignment: TAssignmentSettings;
  /** The AI first responder; human-only topics as lines of text. */
  ai_responder: TAiResponderDraft;
  /** Off: the group always answers (business_hours null). */
  hours_enabled: boolean;
  /** The hours as edited; holidays one date a line. */
  business_hours: { time_zone: string; weekly: TOpeningHours[]; holidays: string };
  away_message: string;
  /** Minutes as typed ('' : no target). */
  sla: { first_response_minutes: string; resolution_minutes: string };
  csat: boolean;
};

export type TAiResponderDraft = Omit<TAiResponderSettings, 'handoff'> & {
  handoff: Omit<TAiResponderSettings['handoff'], 'human_only_topics'> & { human_only_topics: string };
};

function toAiResponderDraft(settings: TAiResponderSettings): TAiResponderDraft {
  return {
    mode: settings.mode,
    channels: [...settings.channels],
    handoff: { ...settings.handoff, human_only_topics: settings.handoff.human_only_topics.join('\n') },
    monthly_token_budget: settings.monthly_token_budget,
    tools: settings.tools.map((t) => ({ ...t })),
  };
}

/** What "Set business hours" starts from: Monday to Friday, 9 to 5, in the browser's zone. */
export function defaultHours(): TGroupFormValues['business_hours'] {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  return {
    time_zone: zone,
    weekly: (['mon', 'tue', 'wed', 'thu', 'fri'] as const).map((day) => ({
      day,
      start: '09:00',
      end: '17:00',
    })),
    holidays: '',
  };
}

const minutesText = (value: number | null | undefined) => (value == null ? '' : String(value));

/** Typed minutes as the API takes them: '' is no target; anything else a number (the contract checks it). */
function minutesValue(text: string): number | null {
  const trimmed = text.trim();
  return trimmed === '' ? null : Number(trimmed);
}

export type TGroupRequest = z.output<typeof ZSaveChatGroupRequest>;

/** One allowed origin as the contracts check it (https://host[:port], lowercased). */
export const ZOrigin = ZUpdateWidgetSettingsRequest.shape.allowed_origins.unwrap().element;
export const ORIGINS_MAX = 50;
export const VISITOR_FIELDS_MAX = 20;

export function toFormValues(group?: TChatGroupSettings): TGroupFormValues {
  if (!group) {
    return {
      name: '',
      slug: '',
      greeting: '',
      color: DEFAULT_COLOR,
      launcher_position: 'right',
      allowed_origins: [],
      visitor_form: [],
      assignment: { ...DEFAULT_ASSIGNMENT },
      ai_responder: toAiResponderDraft(DEFAULT_AI_RESPONDER),
      hours_enabled: false,
      business_hours: defaultHours(),
      away_message: '',
      sla: { first_response_minutes: '', resolution_minutes: '' },
      csat: false,
    };
  }
  return {
    name: group.name,
    slug: group.slug,
    greeting: group.greeting,
    color: group.color,
    launcher_position: group.launcher_position,
    allowed_origins: [...group.allowed_origins],
    assignment: { ...(group.assignment ?? DEFAULT_ASSIGNMENT) },
    ai_responder: toAiResponderDraft(group.ai_responder ?? DEFAULT_AI_RESPONDER),
    hours_enabled: Boolean(group.business_hours),
    business_hours: group.business_hours
      ? {
          time_zone: group.business_hours.time_zone,
          weekly: group.business_hours.weekly.map((r) => ({ ...r })),
          holidays: group.business_hours.holidays.join('\n'),
        }
      : defaultHours(),
    away_message: group.away_message ?? '',
    sla: {
      first_response_minutes: minutesText(group.sla?.first_response_minutes),
      resolution_minutes: minutesText(group.sla?.resolution_minutes),
    },
    csat: group.csat ?? false,
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
  const ai = values.ai_responder;
  const { hours_enabled, business_hours, sla, ...rest } = values;
  return {
    ...rest,
    visitor_form: toVisitorForm(values.visitor_form),
    ai_responder: {
      ...ai,
      // One checkbox ticked alone comes back from the form as its value, none as false.
      channels: Array.isArray(ai.channels) ? ai.channels : ai.channels ? [ai.channels] : [],
      handoff: { ...ai.handoff, human_only_topics: optionLines(ai.handoff.human_only_topics) },
    },
    business_hours: hours_enabled
      ? {
          time_zone: business_hours.time_zone,
          weekly: business_hours.weekly,
          holidays: optionLines(business_hours.holidays),
        }
      : null,
    sla: {
      first_response_minutes: minutesValue(sla.first_response_minutes),
      resolution_minutes: minutesValue(sla.resolution_minutes),
    },
  };
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
  const shown =
    path[0] === 'visitor_form' && path[2] === 'options'
      ? path.slice(0, 3)
      : path[0] === 'ai_responder'
        ? path.slice(0, path[1] === 'handoff' ? 3 : 2)
        : path[0] === 'business_hours' && path[1] === 'holidays'
          ? path.slice(0, 2)
          : path;
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
    'assignment.mode',
    'assignment.capacity',
    'ai_responder.mode',
    'ai_responder.channels',
    'ai_responder.handoff.max_turns',
    'ai_responder.handoff.min_confidence',
    'ai_responder.handoff.human_only_topics',
    'ai_responder.monthly_token_budget',
    'ai_responder.tools',
    'business_hours.time_zone',
    'business_hours.weekly',
    'business_hours.holidays',
    'away_message',
    'sla.first_response_minutes',
    'sla.resolution_minutes',
    'csat',
    ...values.business_hours.weekly.flatMap((_, i) =>
      (['day', 'start', 'end'] as const).map((key) => `business_hours.weekly.${i}.${key}` as const),
    ),
    ...values.allowed_origins.map((_, i) => `allowed_origins.${i}` as const),
    ...values.visitor_form.flatMap((_, i) =>
      (['label', 'name', 'type', 'required', 'options'] as const).map(
        (key) => `visitor_form.${i}.${key}` as const,
      ),
    ),
  ];
}
