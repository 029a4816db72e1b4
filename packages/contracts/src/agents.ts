// AI agents (engage.md §5): the agent, its immutable config versions, its schedule, and the agents
// suggested from what a business has.
import { z } from 'zod';
import { ZSegmentFilter, type TSegmentFilter } from './customer-lists';
import { ZMarketingConsent } from './marketing-consent';

/** How an agent's messages leave: at once, after a person approves each, or not at all. */
export const AGENT_SEND_MODES = ['auto', 'review', 'dry_run'] as const;
/** What a schedule does with the slots it missed while Titan was down. */
export const AGENT_MISSED_POLICIES = ['skip', 'run_once'] as const;
export const AGENT_STATUSES = ['draft', 'active', 'paused', 'archived'] as const;
export const ZAgentStatus = z.enum(AGENT_STATUSES);
export type TAgentStatus = z.infer<typeof ZAgentStatus>;

export const AGENT_CHANNELS = ['email', 'sms', 'whatsapp'] as const;
export const ZAgentChannel = z.enum(AGENT_CHANNELS);
export type TAgentChannel = z.infer<typeof ZAgentChannel>;

/** The tools Titan itself gives agents (engage.md §5 "Tools"). */
export const AGENT_BUILTIN_TOOLS = [
  'lookup_customer',
  'customer_conversations',
  'list_templates',
  'send_email',
  'send_sms',
  'send_whatsapp_template',
] as const;

/** Avatars: PNG, JPEG, GIF or WebP, at most 2 MB, kept under agent_images/. */
export const AGENT_AVATAR_LIMIT_BYTES = 2 * 1024 * 1024;
export const AGENT_AVATAR_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
/** Instructions are at most 25 KB of UTF-8. */
export const AGENT_INSTRUCTIONS_MAX_BYTES = 25 * 1024;

/** Sensible ranges for an agent's limits: [min, max]. */
export const AGENT_LIMIT_RANGES = {
  max_sends_per_run: [1, 10_000],
  per_recipient_per_week: [1, 14],
  max_steps: [1, 50],
  max_tokens: [256, 200_000],
} as const;

export const AGENT_ERRORS = {
  notFound: 'Agent not found.',
  instructionsTooLong: 'Instructions can be at most 25 KB.',
  noAudience: 'Choose at least one list or a segment.',
  unknownLists: 'These lists are not in your business.',
  unknownTemplate: 'No such template in your business.',
  smsHasNoTemplates: 'SMS has no templates; leave template_id out.',
  duplicateChannel: 'Each channel can be listed once.',
  unknownBuiltinTool: 'No built-in tool has this name.',
  serverIdRequired: 'Tools from MCP servers and plugins need a server_id.',
  unknownServer: 'No connected MCP server or plugin with this id.',
  invalidFromEmail: 'Enter a valid email address.',
  invalidFromPhone: 'Enter a phone number in international format, such as +14155550123.',
  quietHoursEqual: 'Quiet hours must start and end at different times.',
  timeOfDay: 'Enter a time as HH:MM (24-hour).',
  activeNeedsConfig: 'Give the agent a configuration before activating it.',
  multipartOnly: 'Send the file as multipart/form-data.',
  noFile: 'No file was submitted.',
  emptyFile: 'The submitted file is empty.',
  notAnImage: 'Upload a PNG, JPEG, GIF or WebP image.',
  avatarTooLarge: 'Avatars can be at most 2 MB.',
  invalidTimezone: 'Enter a valid IANA time zone, such as Europe/Berlin.',
  invalidCron: 'Enter a valid cron expression with five fields, such as 0 9 * * 1.',
  cronRequired: 'A cron schedule needs a cron expression.',
  everyMinutesRequired: 'An interval schedule needs every_minutes.',
  runAtRequired: 'A one-time schedule needs run_at.',
  runAtPast: 'Choose a time in the future.',
  endBeforeStart: 'end_at must be after start_at.',
  neverRuns: 'This schedule has no run between start_at and end_at.',
  limitRange: (min: number, max: number) => `Enter a whole number from ${min} to ${max}.`,
} as const;

const utf8Bytes = (s: string) => new TextEncoder().encode(s).length;

/** An IANA time zone this runtime knows (browsers and Node alike). */
export function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return value.length > 0;
  } catch {
    return false;
  }
}

const limit = (key: keyof typeof AGENT_LIMIT_RANGES, fallback: number) => {
  const [min, max] = AGENT_LIMIT_RANGES[key];
  const message = AGENT_ERRORS.limitRange(min, max);
  return z.number({ message }).int({ message }).min(min, { message }).max(max, { message }).default(fallback);
};

const timeOfDay = z.string().regex(/^([01][0-9]|2[0-3]):[0-5][0-9]$/, { message: AGENT_ERRORS.timeOfDay });
const E164 = /^\+[1-9][0-9]{6,14}$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const ZAgentChannelConfig = z
  .object({
    channel: ZAgentChannel,
    template_id: z.number().int().positive().optional(),
    /** The sender: an address for email, a number for SMS and WhatsApp. */
    from: z.string().trim().min(1).max(320).optional(),
  })
  .superRefine((c, ctx) => {
    if (c.from === undefined) return;
    const ok = c.channel === 'email' ? EMAIL.test(c.from) : E164.test(c.from);
    if (!ok)
      ctx.addIssue({
        code: 'custom',
        path: ['from'],
        message: c.channel === 'email' ? AGENT_ERRORS.invalidFromEmail : AGENT_ERRORS.invalidFromPhone,
      });
  });

export const ZAgentTool = z
  .object({
    source: z.enum(['builtin', 'mcp', 'plugin']),
    server_id: z.number().int().positive().optional(),
    name: z.string().trim().min(1).max(128),
    approval: z.enum(['auto', 'review']).default('auto'),
  })
  .superRefine((t, ctx) => {
    if (t.source === 'builtin' && !(AGENT_BUILTIN_TOOLS as readonly string[]).includes(t.name))
      ctx.addIssue({ code: 'custom', path: ['name'], message: AGENT_ERRORS.unknownBuiltinTool });
    if (t.source !== 'builtin' && t.server_id === undefined)
      ctx.addIssue({ code: 'custom', path: ['server_id'], message: AGENT_ERRORS.serverIdRequired });
  });

export type TAgentTool = z.output<typeof ZAgentTool>;

export const ZAgentConfigRequest = z.object({
  instructions: z.string().refine((s) => utf8Bytes(s) <= AGENT_INSTRUCTIONS_MAX_BYTES, {
    message: AGENT_ERRORS.instructionsTooLong,
  }),
  goal: z.string().trim().min(1).max(1000),
  audience: z
    .object({
      list_ids: z.array(z.number().int().positive()).max(20).default([]),
      /** Conditions every recipient must also meet (a segment over the directory). */
      segment: ZSegmentFilter.optional(),
    })
    .refine((a) => a.list_ids.length > 0 || a.segment !== undefined, {
      message: AGENT_ERRORS.noAudience,
      path: ['list_ids'],
    }),
  channels: z
    .array(ZAgentChannelConfig)
    .min(1)
    .max(3)
    .refine((cs) => new Set(cs.map((c) => c.channel)).size === cs.length, {
      message: AGENT_ERRORS.duplicateChannel,
    }),
  tools: z.array(ZAgentTool).max(50).default([]),
  model: z.string().trim().min(1).max(200).optional(),
  limits: z
    .object({
      max_sends_per_run: limit('max_sends_per_run', 100),
      per_recipient_per_week: limit('per_recipient_per_week', 1),
      max_steps: limit('max_steps', 10),
      max_tokens: limit('max_tokens', 4000),
    })
    .prefault({}),
  send_mode: z.enum(AGENT_SEND_MODES).default('review'),
  /**
   * Who the agent may write to: only customers who subscribed on the channel (the default), or
   * also those whose consent is unknown (the business's legitimate interest). Never the opted out.
   */
  consent_mode: ZMarketingConsent.default('subscribed'),
  /** In the recipient's time zone, else the business's; null: none. */
  quiet_hours: z
    .object({ start: timeOfDay, end: timeOfDay })
    .refine((q) => q.start !== q.end, { message: AGENT_ERRORS.quietHoursEqual, path: ['end'] })
    .nullable()
    .default(null),
});
export type TAgentConfigRequest = z.input<typeof ZAgentConfigRequest>;
export type TAgentConfigValues = z.output<typeof ZAgentConfigRequest>;

/**
 * The audience as answered: the segment as stored (its dates already normal ISO text; the request
 * schema's transforms cannot serialize).
 */
const ZAgentAudienceOut = z.object({
  list_ids: z.array(z.number().int()),
  segment: z.custom<TSegmentFilter>((v) => typeof v === 'object' && v !== null).optional(),
});

/** A config as answered (a suggestion's draft). */
export const ZAgentConfigOut = ZAgentConfigRequest.extend({ audience: ZAgentAudienceOut });

/** A config version as stored: never changed once written. */
export const ZAgentConfig = ZAgentConfigOut.extend({
  version: z.number().int(),
  created_at: z.string(),
});
export type TAgentConfig = z.infer<typeof ZAgentConfig>;

// ---- Schedules ----

export const AGENT_SCHEDULE_KINDS = ['cron', 'interval', 'once'] as const;
const isoDate = z.iso.datetime({ offset: true });

export const ZAgentScheduleRequest = z
  .object({
    kind: z.enum(AGENT_SCHEDULE_KINDS),
    cron: z.string().trim().min(1).max(120).optional(),
    every_minutes: z
      .number()
      .int()
      .min(1)
      .max(60 * 24 * 31)
      .optional(),
    run_at: isoDate.optional(),
    timezone: z.string().refine(isTimeZone, { message: AGENT_ERRORS.invalidTimezone }),
    start_at: isoDate.nullish(),
    end_at: isoDate.nullish(),
    missed: z.enum(AGENT_MISSED_POLICIES).default('skip'),
  })
  .superRefine((s, ctx) => {
    const need = (field: 'cron' | 'every_minutes' | 'run_at', message: string) => {
      if (s[field] === undefined) ctx.addIssue({ code: 'custom', path: [field], message });
    };
    if (s.kind === 'cron') need('cron', AGENT_ERRORS.cronRequired);
    if (s.kind === 'interval') need('every_minutes', AGENT_ERRORS.everyMinutesRequired);
    if (s.kind === 'once') need('run_at', AGENT_ERRORS.runAtRequired);
    if (s.start_at && s.end_at && Date.parse(s.end_at) <= Date.parse(s.start_at))
      ctx.addIssue({ code: 'custom', path: ['end_at'], message: AGENT_ERRORS.endBeforeStart });
  });
export type TAgentScheduleRequest = z.input<typeof ZAgentScheduleRequest>;

export const ZAgentSchedule = z.object({
  kind: z.enum(AGENT_SCHEDULE_KINDS),
  cron: z.string().nullable(),
  every_minutes: z.number().int().nullable(),
  run_at: z.string().nullable(),
  timezone: z.string(),
  start_at: z.string().nullable(),
  end_at: z.string().nullable(),
  missed: z.enum(AGENT_MISSED_POLICIES),
  /** Computed in the schedule's time zone; null when it will not fire again. */
  next_run_at: z.string().nullable(),
  last_fired_at: z.string().nullable(),
});
export type TAgentSchedule = z.infer<typeof ZAgentSchedule>;

// ---- Agents ----

export const ZAgent = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  avatar_url: z.string().nullable(),
  status: ZAgentStatus,
  /** Why the agent has its status, in words (e.g. paused after repeated failed runs); null otherwise. */
  status_reason: z.string().nullable(),
  /** The current config version, or null before the first. */
  config: ZAgentConfig.nullable(),
  schedule: ZAgentSchedule.nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  /** Null until the agent has run. */
  last_run: z
    .object({
      id: z.string(),
      status: z.string(),
      started_at: z.string(),
      channel: z.string(),
      finished_at: z.string().nullable(),
      error: z.string().nullable(),
    })
    .nullable(),
});
export type TAgent = z.infer<typeof ZAgent>;

const name = z.string().trim().min(1).max(120);
const description = z.string().trim().max(2000);

export const ZCreateAgentRequest = z.object({
  name,
  description: description.default(''),
  status: ZAgentStatus.default('draft'),
  /** The first config version, if given. */
  config: ZAgentConfigRequest.optional(),
});
export type TCreateAgentRequest = z.input<typeof ZCreateAgentRequest>;

export const ZUpdateAgentRequest = z.object({
  name: name.optional(),
  description: description.optional(),
  status: ZAgentStatus.optional(),
  /** null removes the avatar. */
  avatar_url: z.null().optional(),
});
export type TUpdateAgentRequest = z.input<typeof ZUpdateAgentRequest>;

// ---- Suggestions ----

export const ZSuggestedAgent = z.object({
  key: z.enum(['win_back', 'unanswered_follow_up', 'review_request', 'reminder']),
  name: z.string(),
  description: z.string(),
  /** Why it is suggested, from the business's own numbers. */
  reason: z.string(),
  audience_count: z.number().int(),
  /** A ready draft config: POST it to /api/agents/ as `config`. */
  config: ZAgentConfigOut,
});
export type TSuggestedAgent = z.infer<typeof ZSuggestedAgent>;
export type TAgentChannelConfigInput = z.input<typeof ZAgentChannelConfig>;
