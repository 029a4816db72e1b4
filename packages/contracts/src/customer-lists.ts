// Customer lists (engage.md §3): a static list holds the customers added to it; a segment is a
// saved filter over the directory, counted and resolved live, so it never goes stale.
import { z } from 'zod';
import { ZChannel, ZPageQuery } from './conversations';
import { ZConsentStatus } from './directory';
import { ZStrictDate } from './dates';

export const SEGMENT_FIELD_KEY_PATTERN = /^[A-Za-z0-9_][A-Za-z0-9_ .-]{0,63}$/;

/**
 * A segment's conditions, all of which a customer must meet. Consent conditions join this when
 * customers carry consent (the audience issue).
 */
export const ZSegmentFilter = z
  .object({
    /** A fragment of the name, email or phone. */
    search: z.string().trim().min(1).max(200).optional(),
    has_email: z.boolean().optional(),
    has_phone: z.boolean().optional(),
    /** Has a conversation on this channel. */
    channel: ZChannel.optional(),
    /**
     * Dates: YYYY-MM-DD or an ISO date-time with its offset, stored as given (no transform, so the
     * schema that reads a request also writes the stored filter back). A bare date in a `__lte`
     * condition includes that whole day (UTC).
     */
    created_at__gte: ZStrictDate.optional(),
    created_at__lte: ZStrictDate.optional(),
    last_seen_at__gte: ZStrictDate.optional(),
    last_seen_at__lte: ZStrictDate.optional(),
    /** Consent per channel. */
    email_status: ZConsentStatus.optional(),
    sms_status: ZConsentStatus.optional(),
    whatsapp_status: ZConsentStatus.optional(),
    /** Custom fields that must equal these values (text compared exactly). */
    fields: z
      .record(
        z
          .string()
          .regex(SEGMENT_FIELD_KEY_PATTERN, 'Use letters, digits, spaces, dots, dashes or underscores.'),
        z.union([z.string().max(2000), z.number(), z.boolean()]),
      )
      .refine((f) => Object.keys(f).length <= 20, 'At most 20 fields.')
      .optional(),
  })
  .strict();
export type TSegmentFilter = z.infer<typeof ZSegmentFilter>;

export const CUSTOMER_LIST_KINDS = ['static', 'segment'] as const;
export const ZCustomerListKind = z.enum(CUSTOMER_LIST_KINDS);
export type TCustomerListKind = z.infer<typeof ZCustomerListKind>;

export const CUSTOMER_LIST_MESSAGES = {
  nameTaken: 'A list with this name already exists.',
  segmentNeedsFilter: 'A segment needs at least one condition.',
  staticHasNoFilter: 'A static list holds the customers added to it; it takes no filter.',
  membersOfSegment: 'A segment’s members follow its conditions; change the conditions instead.',
  unknownCustomers: 'These customers are not in your directory.',
  notFound: 'No such list.',
  invalidFilter: 'This segment’s saved conditions are no longer valid. Save new conditions.',
} as const;

export const ZCustomerList = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  kind: ZCustomerListKind,
  filter: ZSegmentFilter.nullable(),
  /**
   * Only on a segment whose saved conditions no longer read as valid (saved by an older version):
   * why; its `filter` is then null and `member_count` 0 until new conditions are saved.
   */
  filter_error: z.string().optional(),
  /** Counted when asked: a segment's count follows the directory. */
  member_count: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TCustomerList = z.infer<typeof ZCustomerList>;

const ZListName = z.string().trim().min(1, 'This field may not be blank.').max(150);
const ZListDescription = z.string().trim().max(2000);
const hasCondition = (f: TSegmentFilter | undefined) => !!f && Object.values(f).some((v) => v !== undefined);

export const ZCreateCustomerListRequest = z
  .object({
    name: ZListName,
    description: ZListDescription.default(''),
    kind: ZCustomerListKind.default('static'),
    filter: ZSegmentFilter.nullable().optional(),
  })
  .superRefine((v, ctx) => {
    if (v.kind === 'segment' && !hasCondition(v.filter ?? undefined))
      ctx.addIssue({ code: 'custom', path: ['filter'], message: CUSTOMER_LIST_MESSAGES.segmentNeedsFilter });
    if (v.kind === 'static' && v.filter)
      ctx.addIssue({ code: 'custom', path: ['filter'], message: CUSTOMER_LIST_MESSAGES.staticHasNoFilter });
  });
export type TCreateCustomerListRequest = z.infer<typeof ZCreateCustomerListRequest>;

export const ZUpdateCustomerListRequest = z
  .object({
    name: ZListName.optional(),
    description: ZListDescription.optional(),
    filter: ZSegmentFilter.optional(),
  })
  .refine((v) => Object.values(v).some((x) => x !== undefined), {
    message: 'Send name, description or filter.',
    path: ['non_field_errors'],
  });
export type TUpdateCustomerListRequest = z.infer<typeof ZUpdateCustomerListRequest>;

export const ZListMembersRequest = z.object({
  customer_ids: z
    .array(z.number().int().positive())
    .min(1, 'Name at least one customer.')
    .max(1000, 'At most 1,000 customers at a time.'),
});
export type TListMembersRequest = z.infer<typeof ZListMembersRequest>;

export const ZListMembersResult = z.object({ added: z.number().int(), removed: z.number().int() });
export type TListMembersResult = z.infer<typeof ZListMembersResult>;

export const ZCustomerListQuery = ZPageQuery.extend({ search: z.string().trim().max(200).optional() });
export type TCustomerListQuery = z.infer<typeof ZCustomerListQuery>;

export const ZListMembersQuery = ZPageQuery;
export type TListMembersQuery = z.infer<typeof ZListMembersQuery>;
