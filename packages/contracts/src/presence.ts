// Presence and auto-assignment (next-api.md "Team inbox"): PUT /api/users/presence/, the realtime
// `presence` topic, typing events, and a chat group's `assignment`.
import { z } from 'zod';
import { ZPresenceStatus } from './business';

export const ZPresenceRequest = z.strictObject({ status: ZPresenceStatus });
export type TPresenceRequest = z.infer<typeof ZPresenceRequest>;

/** One member's presence, as PUT /api/users/presence/ answers and the `presence` topic sends it. */
export const ZPresence = z.object({
  user_id: z.number().int(),
  status: ZPresenceStatus,
  updated_at: z.string(),
});
export type TPresence = z.infer<typeof ZPresence>;

export const ASSIGNMENT_MODES = ['off', 'round_robin', 'least_busy'] as const;
export const ZAssignmentMode = z.enum(ASSIGNMENT_MODES);
export type TAssignmentMode = z.infer<typeof ZAssignmentMode>;

/**
 * A chat group's auto-assignment: off, round robin or least busy, among its members who are online
 * and hold fewer than `capacity` open conversations of the group.
 */
export const ZAssignmentSettings = z.strictObject({
  mode: ZAssignmentMode,
  capacity: z
    .number({ message: 'Enter a whole number from 1 to 1000.' })
    .int('Enter a whole number from 1 to 1000.')
    .min(1, 'Enter a whole number from 1 to 1000.')
    .max(1000, 'Enter a whole number from 1 to 1000.'),
});
export type TAssignmentSettings = z.infer<typeof ZAssignmentSettings>;

export const DEFAULT_ASSIGNMENT: TAssignmentSettings = { mode: 'off', capacity: 10 };

/** Who is typing, as a typing event names them (visitors see a staff member's name only). */
export const ZTypingWho = z.object({
  type: z.enum(['staff', 'customer']),
  id: z.number().int().optional(),
  name: z.string(),
});
export type TTypingWho = z.infer<typeof ZTypingWho>;
