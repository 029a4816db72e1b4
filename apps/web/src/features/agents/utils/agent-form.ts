// The agent screen's form: its values, built from an agent (or blank), turned into the API's
// requests, and checked with the same contracts schemas the server uses. Errors — the browser's and
// the server's alike — are keyed by the request's paths (`config.channels.0.template_id`) and placed
// on the form's fields by one mapping, so a server refusal lands where a user would look.
import {
  AGENT_CHANNELS,
  ZAgentConfigRequest,
  ZAgentScheduleRequest,
  type TAgent,
  type TAgentChannel,
  type TAgentConfigRequest,
  type TAgentScheduleRequest,
  type TAgentTool,
  type TMarketingConsent,
  type TSegmentFilter,
} from '@titan/contracts';

import { AGENT_STRINGS } from '../strings';
import { formToSchedule, scheduleToForm, type TScheduleForm } from './schedule';

const E = AGENT_STRINGS.editor;

export type TSendMode = 'auto' | 'review' | 'dry_run';

export type TChannelForm = { enabled: boolean; template_id: string; from: string };

export type TAgentForm = {
  name: string;
  description: string;
  instructions: string;
  goal: string;
  model: string;
  list_ids: number[];
  channels: Record<TAgentChannel, TChannelForm>;
  limits: {
    max_sends_per_run: number;
    per_recipient_per_week: number;
    max_steps: number;
    max_tokens: number;
  };
  send_mode: TSendMode;
  consent_mode: TMarketingConsent;
  quiet_enabled: boolean;
  quiet_start: string;
  quiet_end: string;
  schedule: TScheduleForm;
};

/** What the form keeps outside react-hook-form: chosen tools and the audience's extra conditions. */
export type TAgentExtras = { tools: TAgentTool[]; segment: TSegmentFilter | undefined };

export const LIMIT_KEYS = ['max_sends_per_run', 'per_recipient_per_week', 'max_steps', 'max_tokens'] as const;

export function agentToForm(
  agent: TAgent | null,
  defaultTimeZone?: string,
): { values: TAgentForm; extras: TAgentExtras } {
  const config = agent?.config ?? null;
  const channel = (c: TAgentChannel): TChannelForm => {
    const found = config?.channels.find((x) => x.channel === c);
    return {
      enabled: Boolean(found),
      template_id: found?.template_id ? String(found.template_id) : '',
      from: found?.from ?? '',
    };
  };
  return {
    values: {
      name: agent?.name ?? '',
      description: agent?.description ?? '',
      instructions: config?.instructions ?? '',
      goal: config?.goal ?? '',
      model: config?.model ?? '',
      list_ids: config?.audience.list_ids ?? [],
      channels: { email: channel('email'), sms: channel('sms'), whatsapp: channel('whatsapp') },
      limits: {
        max_sends_per_run: config?.limits.max_sends_per_run ?? 100,
        per_recipient_per_week: config?.limits.per_recipient_per_week ?? 1,
        max_steps: config?.limits.max_steps ?? 10,
        max_tokens: config?.limits.max_tokens ?? 4000,
      },
      send_mode: config?.send_mode ?? 'review',
      consent_mode: config?.consent_mode ?? 'subscribed',
      quiet_enabled: Boolean(config?.quiet_hours),
      quiet_start: config?.quiet_hours?.start ?? '21:00',
      quiet_end: config?.quiet_hours?.end ?? '08:00',
      schedule: scheduleToForm(agent?.schedule ?? null, defaultTimeZone),
    },
    extras: { tools: config?.tools ?? [], segment: config?.audience.segment },
  };
}

/** The channels the request lists, in its order (errors name them by index). */
export function enabledChannels(values: TAgentForm): TAgentChannel[] {
  return AGENT_CHANNELS.filter((c) => values.channels[c].enabled);
}

export function formToConfig(values: TAgentForm, extras: TAgentExtras): TAgentConfigRequest {
  const model = values.model.trim();
  return {
    instructions: values.instructions,
    goal: values.goal.trim(),
    audience: { list_ids: values.list_ids, ...(extras.segment ? { segment: extras.segment } : {}) },
    channels: enabledChannels(values).map((channel) => {
      const c = values.channels[channel];
      const from = c.from.trim();
      return {
        channel,
        ...(c.template_id && channel !== 'sms' ? { template_id: Number(c.template_id) } : {}),
        ...(from ? { from } : {}),
      };
    }),
    tools: extras.tools,
    ...(model ? { model } : {}),
    limits: values.limits,
    send_mode: values.send_mode,
    consent_mode: values.consent_mode,
    quiet_hours: values.quiet_enabled ? { start: values.quiet_start, end: values.quiet_end } : null,
  };
}

export type TFieldErrorMap = Record<string, string[]>;

/** Zod issues as a field-error map keyed like the server's (dotted paths). */
function issuesToErrors(
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
  prefix: string,
): TFieldErrorMap {
  const errors: TFieldErrorMap = {};
  for (const issue of issues) {
    const key = prefix + issue.path.map(String).join('.');
    (errors[key] ??= []).push(issue.message);
  }
  return errors;
}

/**
 * The browser's own check, with the server's schemas (and clearer words for what is missing). Keys
 * are those the server would answer: `name`, `config.…`, `schedule.…`.
 */
export function checkAgentForm(values: TAgentForm, extras: TAgentExtras): TFieldErrorMap {
  const errors: TFieldErrorMap = {};
  if (!values.name.trim()) errors.name = [E.nameRequired];
  const config = ZAgentConfigRequest.safeParse(formToConfig(values, extras));
  if (!config.success) Object.assign(errors, issuesToErrors(config.error.issues, 'config.'));
  if (!values.goal.trim()) errors['config.goal'] = [E.goalRequired];
  if (enabledChannels(values).length === 0) errors['config.channels'] = [E.channelRequired];
  if (values.schedule.preset === 'weekly' && values.schedule.days.length === 0)
    errors['schedule.days'] = [AGENT_STRINGS.schedule.pickDay];
  const schedule = formToSchedule(values.schedule);
  if (schedule) {
    const checked = ZAgentScheduleRequest.safeParse(schedule);
    if (!checked.success) Object.assign(errors, issuesToErrors(checked.error.issues, 'schedule.'));
  }
  return errors;
}

/** Where a request path's error shows on the form; root.* keys are the sections' own alerts. */
export function formPathOf(key: string, channels: readonly TAgentChannel[]): string {
  const config = key.startsWith('config.') ? key.slice('config.'.length) : null;
  if (key.startsWith('schedule.')) {
    const field = key.slice('schedule.'.length).split('.')[0] ?? '';
    const known: Record<string, string> = {
      days: 'schedule.days',
      cron: 'schedule.cron',
      run_at: 'schedule.run_at',
      every_minutes: 'schedule.every_hours',
      timezone: 'schedule.timezone',
      start_at: 'schedule.start_at',
      end_at: 'schedule.end_at',
    };
    return known[field] ?? 'root.schedule';
  }
  if (config === null) {
    if (key === 'name' || key === 'description') return key;
    return 'root.server';
  }
  const [head, second, third] = config.split('.');
  switch (head) {
    case 'instructions':
    case 'goal':
    case 'model':
    case 'send_mode':
    case 'consent_mode':
      return head;
    case 'audience':
      return second === 'segment' ? 'root.segment' : 'list_ids';
    case 'channels': {
      const channel = second !== undefined ? channels[Number(second)] : undefined;
      if (channel && (third === 'template_id' || third === 'from')) return `channels.${channel}.${third}`;
      return 'root.channels';
    }
    case 'tools':
      return 'root.tools';
    case 'limits':
      return second && (LIMIT_KEYS as readonly string[]).includes(second)
        ? `limits.${second}`
        : 'root.server';
    case 'quiet_hours':
      return second === 'start' ? 'quiet_start' : 'quiet_end';
    default:
      return 'root.server';
  }
}

/** The schedule request the form asks for (null: none). */
export function formSchedule(values: TAgentForm): TAgentScheduleRequest | null {
  return formToSchedule(values.schedule);
}
