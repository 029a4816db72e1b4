// Customer lists (engage.md §3): a static list holds the customers added to it; a segment is a
// saved filter over the directory, counted and resolved live, so it never goes stale.
import { z } from 'zod';
import { ZChannel, ZPageQuery } from './conversations';
import { ZConsentStatus } from './directory';
import { ZStrictDate } from './dates';

export const SEGMENT_FIELD_KEY_PATTERN = /^[A-Za-z0-9_][A-Za-z0-9_ .-]{0,63}$/;

// ---- The segment builder's rules (next-api "Campaigns and consent": `rules: {all|any: [rule | group]}`) ----

export const SEGMENT_RULE_OPS = [
  'eq',
  'neq',
  'contains',
  'not_contains',
  'gt',
  'gte',
  'lt',
  'lte',
  'exists',
  'not_exists',
  /** Dates: within the last N days (value N), or not. */
  'within_days',
  'not_within_days',
  /** Lists, labels, topics: the customer is in it (value: its id), or not. */
  'in',
  'not_in',
] as const;
export type TSegmentRuleOp = (typeof SEGMENT_RULE_OPS)[number];

/** The customer's own values a rule may read. */
export const SEGMENT_CUSTOMER_FIELDS = [
  'name',
  'email',
  'phone',
  'external_id',
  'email_status',
  'sms_status',
  'whatsapp_status',
  'created_at',
  'last_seen_at',
] as const;
export const SEGMENT_DATE_FIELDS = ['customer.created_at', 'customer.last_seen_at'] as const;
/** Memberships a rule may test: a static list, a label, a consent topic (in unless they left it). */
export const SEGMENT_MEMBERSHIPS = ['list', 'label', 'topic'] as const;
export const SEGMENT_RULE_FIELD =
  /^(customer\.fields\.[A-Za-z0-9_][A-Za-z0-9_ .-]{0,63}|customer\.(name|email|phone|external_id|email_status|sms_status|whatsapp_status|created_at|last_seen_at)|list|label|topic)$/;
export const SEGMENT_MAX_RULES = 50;
export const SEGMENT_MAX_DEPTH = 3;

export const SEGMENT_RULE_ERRORS = {
  field:
    'Use customer.<name|email|phone|external_id|email_status|sms_status|whatsapp_status|created_at|last_seen_at>, customer.fields.<key>, list, label or topic.',
  membershipOp: 'A list, label or topic rule is "in" or "not_in" with its id as the value.',
  membershipValue: 'Give the id of the list, label or topic.',
  notMembership: '"in" and "not_in" are for list, label and topic rules.',
  dateOp: 'A date is compared with gt, gte, lt, lte, within_days, not_within_days, exists or not_exists.',
  dateValue: 'Give a date (YYYY-MM-DD, or a date-time with its offset).',
  days: 'Give a number of days (1 or more).',
  daysOnDates: 'within_days is for created_at and last_seen_at.',
  value: 'Give a value to compare with.',
  noValue: 'exists and not_exists take no value.',
  tooDeep: `Groups nest at most ${SEGMENT_MAX_DEPTH} deep.`,
  tooMany: `A segment has at most ${SEGMENT_MAX_RULES} rules.`,
  empty: 'A group needs at least one rule.',
  unknownList: 'No such static list.',
  unknownLabel: 'No such label.',
  unknownTopic: 'No such topic.',
  unknownCampaign: 'No such campaign.',
} as const;

const isoDate = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2}))?$/;

export const ZSegmentRule = z
  .strictObject({
    field: z.string().regex(SEGMENT_RULE_FIELD, SEGMENT_RULE_ERRORS.field),
    op: z.enum(SEGMENT_RULE_OPS),
    value: z.union([z.string().max(2000), z.number(), z.boolean()]).optional(),
  })
  .superRefine((r, ctx) => {
    const issue = (message: string, path: string = 'value') =>
      ctx.addIssue({ code: 'custom', path: [path], message });
    const membership = (SEGMENT_MEMBERSHIPS as readonly string[]).includes(r.field);
    const date = (SEGMENT_DATE_FIELDS as readonly string[]).includes(r.field);
    if (membership) {
      if (r.op !== 'in' && r.op !== 'not_in') issue(SEGMENT_RULE_ERRORS.membershipOp, 'op');
      else if (typeof r.value !== 'number' || !Number.isInteger(r.value) || r.value < 1)
        issue(SEGMENT_RULE_ERRORS.membershipValue);
      return;
    }
    if (r.op === 'in' || r.op === 'not_in') return issue(SEGMENT_RULE_ERRORS.notMembership, 'op');
    if (r.op === 'exists' || r.op === 'not_exists') {
      if (r.value !== undefined) issue(SEGMENT_RULE_ERRORS.noValue);
      return;
    }
    if (r.op === 'within_days' || r.op === 'not_within_days') {
      if (!date) return issue(SEGMENT_RULE_ERRORS.daysOnDates, 'op');
      if (typeof r.value !== 'number' || !Number.isInteger(r.value) || r.value < 1 || r.value > 36_500)
        issue(SEGMENT_RULE_ERRORS.days);
      return;
    }
    if (date) {
      if (!['gt', 'gte', 'lt', 'lte'].includes(r.op)) return issue(SEGMENT_RULE_ERRORS.dateOp, 'op');
      if (typeof r.value !== 'string' || !isoDate.test(r.value) || Number.isNaN(Date.parse(r.value)))
        issue(SEGMENT_RULE_ERRORS.dateValue);
      return;
    }
    if (r.value === undefined || r.value === '') issue(SEGMENT_RULE_ERRORS.value);
  });
export type TSegmentRule = z.infer<typeof ZSegmentRule>;

/**
 * Behaviour (next-api: `{event: received|opened|clicked|replied, campaign_id?, within_days}`), read
 * from the send log and the inbox: received / opened / clicked a campaign (any, or `campaign_id`)
 * within the last N days; replied (wrote to the business; with `campaign_id`, after receiving it)
 * within N days; `open_conversation`: has a conversation not resolved (with `within_days`, one
 * whose last message is that recent). `not: true` asks the opposite (did not open in 90 days).
 */
export const SEGMENT_BEHAVIOUR_EVENTS = [
  'received',
  'opened',
  'clicked',
  'replied',
  'open_conversation',
] as const;
export type TSegmentBehaviourEvent = (typeof SEGMENT_BEHAVIOUR_EVENTS)[number];

export const SEGMENT_BEHAVIOUR_ERRORS = {
  days: 'Give a number of days (1 to 36500).',
  campaignOnConversation: 'An open conversation is not about one campaign: leave campaign_id out.',
} as const;

export const ZSegmentBehaviourRule = z
  .strictObject({
    event: z.enum(SEGMENT_BEHAVIOUR_EVENTS),
    /** One campaign of the business (else any campaign); another's is refused (400). */
    campaign_id: z.uuid().optional(),
    within_days: z
      .number()
      .int()
      .min(1, SEGMENT_BEHAVIOUR_ERRORS.days)
      .max(36_500, SEGMENT_BEHAVIOUR_ERRORS.days)
      .optional(),
    not: z.boolean().optional(),
  })
  .superRefine((r, ctx) => {
    if (r.event === 'open_conversation') {
      if (r.campaign_id !== undefined)
        ctx.addIssue({
          code: 'custom',
          path: ['campaign_id'],
          message: SEGMENT_BEHAVIOUR_ERRORS.campaignOnConversation,
        });
    } else if (r.within_days === undefined)
      ctx.addIssue({ code: 'custom', path: ['within_days'], message: SEGMENT_BEHAVIOUR_ERRORS.days });
  });
export type TSegmentBehaviourRule = z.infer<typeof ZSegmentBehaviourRule>;

/** One condition of the builder: on the customer's values and memberships, or on their behaviour. */
export type TSegmentCondition = TSegmentRule | TSegmentBehaviourRule;
const ZSegmentCondition = z.union([ZSegmentRule, ZSegmentBehaviourRule]);
export const isBehaviourRule = (r: TSegmentCondition): r is TSegmentBehaviourRule => 'event' in r;

/** `{all: [...]}` (every one holds) or `{any: [...]}` (at least one), of rules and nested groups. */
export type TSegmentRuleTree =
  { all: (TSegmentCondition | TSegmentRuleTree)[] } | { any: (TSegmentCondition | TSegmentRuleTree)[] };

/**
 * A group of `items`: all of them hold, or any. Built level by level (no recursive schema, so the
 * OpenAPI document stays plain): the top group may hold groups that may hold groups of rules.
 */
const groupOf = <T extends z.ZodType>(items: T) =>
  z.union([
    z.strictObject({ all: z.array(items).min(1, SEGMENT_RULE_ERRORS.empty) }),
    z.strictObject({ any: z.array(items).min(1, SEGMENT_RULE_ERRORS.empty) }),
  ]);
const ZSegmentGroup3 = groupOf(ZSegmentCondition);
const ZSegmentGroup2 = groupOf(z.union([ZSegmentRule, ZSegmentBehaviourRule, ZSegmentGroup3]));
const ZSegmentGroup = groupOf(z.union([ZSegmentRule, ZSegmentBehaviourRule, ZSegmentGroup2]));

/** The rules of a group, in order. */
export const groupItems = (g: TSegmentRuleTree) => ('all' in g ? g.all : g.any);
export const isSegmentGroup = (x: TSegmentCondition | TSegmentRuleTree): x is TSegmentRuleTree =>
  'all' in x || 'any' in x;

/** Every rule of a tree, and its depth (a bare group is 1). */
export function segmentRulesOf(
  g: TSegmentRuleTree,
  depth = 1,
): { rules: TSegmentCondition[]; depth: number } {
  let deepest = depth;
  const rules: TSegmentCondition[] = [];
  for (const item of groupItems(g)) {
    if (isSegmentGroup(item)) {
      const inner = segmentRulesOf(item, depth + 1);
      rules.push(...inner.rules);
      deepest = Math.max(deepest, inner.depth);
    } else rules.push(item);
  }
  return { rules, depth: deepest };
}

export const ZSegmentRules = ZSegmentGroup.superRefine((g, ctx) => {
  const { rules, depth } = segmentRulesOf(g);
  if (depth > SEGMENT_MAX_DEPTH) ctx.addIssue({ code: 'custom', message: SEGMENT_RULE_ERRORS.tooDeep });
  if (rules.length > SEGMENT_MAX_RULES)
    ctx.addIssue({ code: 'custom', message: SEGMENT_RULE_ERRORS.tooMany });
});
/** A segment's rules as the API takes them (groups at most SEGMENT_MAX_DEPTH deep). */
export type TSegmentRules = z.infer<typeof ZSegmentRules>;

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
    /** The segment builder's rules (AND/OR groups over fields, consent, lists, labels, topics, dates, behaviour). */
    rules: ZSegmentRules.optional(),
  })
  .strict();
export type TSegmentFilter = z.infer<typeof ZSegmentFilter>;

export const CUSTOMER_LIST_KINDS = ['static', 'segment'] as const;
export const ZCustomerListKind = z.enum(CUSTOMER_LIST_KINDS);
export type TCustomerListKind = z.infer<typeof ZCustomerListKind>;

export const CUSTOMER_LIST_ERRORS = {
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
  /** Joining asks the person to confirm first; they are `pending` until then. */
  double_opt_in: z.boolean(),
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

/** A static list a customer belongs to (GET /api/business/customer-directory/{id}/lists/). */
export const ZCustomerListRef = z.object({ id: z.number().int(), name: z.string() });
export type TCustomerListRef = z.infer<typeof ZCustomerListRef>;

const ZListName = z.string().trim().min(1, 'This field may not be blank.').max(150);
const ZListDescription = z.string().trim().max(2000);
const hasCondition = (f: TSegmentFilter | undefined) => !!f && Object.values(f).some((v) => v !== undefined);

export const ZCreateCustomerListRequest = z
  .object({
    name: ZListName,
    description: ZListDescription.default(''),
    kind: ZCustomerListKind.default('static'),
    double_opt_in: z.boolean().default(false),
    filter: ZSegmentFilter.nullable().optional(),
    /** The segment builder's rules; the same as `filter.rules`. */
    rules: ZSegmentRules.optional(),
  })
  .superRefine((v, ctx) => {
    if (v.kind === 'static' && v.rules)
      ctx.addIssue({ code: 'custom', path: ['rules'], message: CUSTOMER_LIST_ERRORS.staticHasNoFilter });
    if (v.kind === 'segment' && !v.rules && !hasCondition(v.filter ?? undefined))
      ctx.addIssue({ code: 'custom', path: ['filter'], message: CUSTOMER_LIST_ERRORS.segmentNeedsFilter });
    if (v.kind === 'static' && v.filter)
      ctx.addIssue({ code: 'custom', path: ['filter'], message: CUSTOMER_LIST_ERRORS.staticHasNoFilter });
  });
export type TCreateCustomerListRequest = z.infer<typeof ZCreateCustomerListRequest>;

export const ZUpdateCustomerListRequest = z
  .object({
    name: ZListName.optional(),
    description: ZListDescription.optional(),
    double_opt_in: z.boolean().optional(),
    filter: ZSegmentFilter.optional(),
    rules: ZSegmentRules.optional(),
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

/** POST /api/business/customer-lists/segments/count/: how many customers the rules match now. */
export const ZSegmentCountRequest = z.strictObject({ rules: ZSegmentRules });
export type TSegmentCountRequest = z.infer<typeof ZSegmentCountRequest>;
export const ZSegmentCount = z.object({ count: z.number().int() });
export type TSegmentCount = z.infer<typeof ZSegmentCount>;
