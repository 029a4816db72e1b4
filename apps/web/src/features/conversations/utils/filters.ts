// The filter panel's choices and how they become the list query (spec sections 2 and 5): "All" means
// no filter, dates are picked as dd-MM-yyyy and sent as ISO instants covering the whole local day.
import type { TChannel, TConversationStatus } from '@titan/contracts';
import { endOfDay, format, isValid, parse, startOfDay } from 'date-fns';

export const FILTER_DATE_FORMAT = 'dd-MM-yyyy';

export type TFilterChoices = {
  status: 'all' | TConversationStatus;
  channel: 'all' | TChannel;
  readStatus: 'all' | 'read' | 'unread';
  businessResponse: 'all' | 'replied' | 'not_replied';
  /** dd-MM-yyyy, or '' for no bound. */
  createdAfter: string;
  createdBefore: string;
  /** dd-MM-yyyy bounds on the last message time (spec section 3: lastMessageAfter / lastMessageBefore). */
  lastMessageAfter: string;
  lastMessageBefore: string;
};

export const NO_FILTERS: TFilterChoices = {
  status: 'all',
  channel: 'all',
  readStatus: 'all',
  businessResponse: 'all',
  createdAfter: '',
  createdBefore: '',
  lastMessageAfter: '',
  lastMessageBefore: '',
};

/** The list query's filter keys (api.md), as sent in the query string and the realtime filter. */
export type TConversationQueryParams = Partial<
  Record<
    | 'status'
    | 'channel__in'
    | 'is_read'
    | 'business_replied'
    | 'created_at__gte'
    | 'created_at__lte'
    | 'last_message_at__gte'
    | 'last_message_at__lte'
    // The team inbox's views (next-api.md): me | none | a member id; none | a chat group id.
    | 'assignee'
    | 'assigned_chat_group'
    // A label's id (next-api.md `label=`; the inbox filters by one at a time).
    | 'label',
    string
  >
>;

/** A dd-MM-yyyy string as a local date, or null when it is not a real date in that format. */
export function parseFilterDate(value: string): Date | null {
  if (!/^\d{2}-\d{2}-\d{4}$/.test(value)) return null;
  const date = parse(value, FILTER_DATE_FORMAT, new Date());
  return isValid(date) ? date : null;
}

export function formatFilterDate(date: Date): string {
  return format(date, FILTER_DATE_FORMAT);
}

export function toQueryParams(choices: TFilterChoices): TConversationQueryParams {
  const params: TConversationQueryParams = {};
  if (choices.status !== 'all') params.status = choices.status;
  if (choices.channel !== 'all') params.channel__in = choices.channel;
  if (choices.readStatus !== 'all') params.is_read = String(choices.readStatus === 'read');
  if (choices.businessResponse !== 'all')
    params.business_replied = String(choices.businessResponse === 'replied');
  const after = parseFilterDate(choices.createdAfter);
  if (after) params.created_at__gte = startOfDay(after).toISOString();
  const before = parseFilterDate(choices.createdBefore);
  if (before) params.created_at__lte = endOfDay(before).toISOString();
  const lastAfter = parseFilterDate(choices.lastMessageAfter);
  if (lastAfter) params.last_message_at__gte = startOfDay(lastAfter).toISOString();
  const lastBefore = parseFilterDate(choices.lastMessageBefore);
  if (lastBefore) params.last_message_at__lte = endOfDay(lastBefore).toISOString();
  return params;
}

export function hasActiveFilters(choices: TFilterChoices): boolean {
  return Object.keys(toQueryParams(choices)).length > 0;
}
