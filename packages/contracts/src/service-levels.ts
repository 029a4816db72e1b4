// A chat group's business hours, away message, SLA targets and CSAT survey (issue 29, next-api.md
// "Team inbox"), and the public CSAT answer.
import { z } from 'zod';
import { ZTimeZone } from './business';

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export const ZWeekday = z.enum(WEEKDAYS);
export type TWeekday = z.infer<typeof ZWeekday>;

const TIME_MESSAGE = 'Enter a time like 09:00 (24:00 for midnight at the end of the day).';
const clock = z.string().regex(/^(?:[01]\d|2[0-3]):[0-5]\d$|^24:00$/, { message: TIME_MESSAGE });

/** Minutes since midnight of `HH:MM`. */
export const minutesOf = (hhmm: string): number => {
  const [h, m] = hhmm.split(':').map(Number);
  return h! * 60 + m!;
};

/** One opening on a weekday, in the group's time zone; `end` after `start` (split overnight hours). */
export const ZOpeningHours = z
  .strictObject({ day: ZWeekday, start: clock, end: clock })
  .refine((r) => minutesOf(r.end) > minutesOf(r.start), {
    message: 'The end must be after the start (split hours that pass midnight in two).',
    path: ['end'],
  });
export type TOpeningHours = z.infer<typeof ZOpeningHours>;

const DATE_MESSAGE = 'Enter a date like 2026-12-25.';
const ZHoliday = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, { message: DATE_MESSAGE })
  .refine(
    (v) =>
      !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v),
    {
      message: DATE_MESSAGE,
    },
  );

/**
 * When a group answers: weekly openings and whole-day holidays, in its time zone. A group with no
 * business hours (null) is always open.
 */
export const ZBusinessHours = z.strictObject({
  time_zone: ZTimeZone,
  weekly: z.array(ZOpeningHours).min(1, 'Add at least one opening.').max(50),
  holidays: z.array(ZHoliday).max(366).default([]),
});
export type TBusinessHours = z.infer<typeof ZBusinessHours>;

/** Response targets in minutes; either may be left out (no target). */
const minutes = z
  .number({ message: 'Enter a number of minutes from 1 to 525600.' })
  .int('Enter a number of minutes from 1 to 525600.')
  .min(1, 'Enter a number of minutes from 1 to 525600.')
  .max(525_600, 'Enter a number of minutes from 1 to 525600.');
export const ZSlaTargets = z.strictObject({
  first_response_minutes: minutes.nullable().default(null),
  resolution_minutes: minutes.nullable().default(null),
});
export type TSlaTargets = z.infer<typeof ZSlaTargets>;

export const AWAY_MESSAGE_MAX = 1000;
export const ZAwayMessage = z.string().trim().max(AWAY_MESSAGE_MAX);

/** A conversation's SLA clocks (null where its group sets no target). */
export const ZConversationSla = z.object({
  first_response_due_at: z.string().nullable(),
  resolution_due_at: z.string().nullable(),
  /** A target was missed: no first reply, or not resolved, by its deadline. */
  breached: z.boolean(),
});
export type TConversationSla = z.infer<typeof ZConversationSla>;

/** Whether the group answers now, as the widget shows it. */
export const ZGroupAvailability = z.object({
  /** Inside business hours (always, without hours). */
  open: z.boolean(),
  /** Outside hours: when the team is back (null: open now, or no opening within a year). */
  reopens_at: z.string().nullable(),
  /** What the widget says outside hours ('' : nothing set). */
  away_message: z.string(),
});
export type TGroupAvailability = z.infer<typeof ZGroupAvailability>;

export const CSAT_RATINGS = [1, 2, 3, 4, 5] as const;
export const ZCsatAnswer = z.strictObject({
  rating: z
    .number({ message: 'Choose a rating from 1 to 5.' })
    .int('Choose a rating from 1 to 5.')
    .min(1, 'Choose a rating from 1 to 5.')
    .max(5, 'Choose a rating from 1 to 5.'),
  comment: z.string().trim().max(2000).optional(),
});
export type TCsatAnswer = z.infer<typeof ZCsatAnswer>;
export const ZCsatTokenParams = z.object({ token: z.string().trim().min(16).max(100) });

/** A survey as its public page and the widget see it. */
export const ZCsatSurvey = z.object({
  business: z.string(),
  rating: z.number().int().nullable(),
  comment: z.string().nullable(),
  answered_at: z.string().nullable(),
});
export type TCsatSurvey = z.infer<typeof ZCsatSurvey>;
