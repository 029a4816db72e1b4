// A channel's log filters as they live in the URL (?status&search&from&to&page: Back and reloads
// keep them) and as the API takes them: a day range becomes created_at bounds from the start of the
// first day to the end of the last, in the business's time zone (as the dashboard counts days).
import {
  EMAIL_LOG_STATUSES,
  EVENT_LOG_STATUSES,
  SMS_LOG_STATUSES,
  WHATSAPP_LOG_STATUSES,
  type TEventLogChannel,
  type TEventLogStatus,
} from '@titan/contracts';

import { dayEnd, dayStart } from '../../../lib/day-ranges';

/** Every status some channel's log answers; each channel filters by its own (`logStatuses`). */
export const LOG_STATUSES = EVENT_LOG_STATUSES;
export type TLogStatus = TEventLogStatus;

/** The statuses a channel's filter offers: email and SMS have their own (opened, bounced; suppressed…). */
export function logStatuses(channel: TEventLogChannel): readonly TLogStatus[] {
  if (channel === 'email') return EMAIL_LOG_STATUSES;
  return channel === 'sms' ? SMS_LOG_STATUSES : WHATSAPP_LOG_STATUSES;
}

export type TLogFilters = {
  status: TLogStatus | '';
  search: string;
  /** yyyy-mm-dd, or '' for no bound. */
  from: string;
  to: string;
};

export type TLogQuery = {
  status?: TLogStatus;
  search?: string;
  created_at__gte?: string;
  created_at__lte?: string;
};

export const NO_LOG_FILTERS: TLogFilters = { status: '', search: '', from: '', to: '' };

const DAY = /^\d{4}-\d{2}-\d{2}$/;

export function isLogStatus(value: string | null): value is TLogStatus {
  return (LOG_STATUSES as readonly string[]).includes(value ?? '');
}

function day(value: string | null): string {
  return value && DAY.test(value) && !Number.isNaN(Date.parse(value)) ? value : '';
}

export function filtersFromParams(params: URLSearchParams): TLogFilters {
  const status = params.get('status');
  return {
    status: isLogStatus(status) ? status : '',
    search: params.get('search')?.trim() ?? '',
    from: day(params.get('from')),
    to: day(params.get('to')),
  };
}

export function pageFromParams(params: URLSearchParams): number {
  const page = Number(params.get('page'));
  return Number.isSafeInteger(page) && page > 0 ? page : 1;
}

export function paramsFromFilters(filters: TLogFilters, page = 1): URLSearchParams {
  const params = new URLSearchParams();
  if (filters.status) params.set('status', filters.status);
  if (filters.search) params.set('search', filters.search);
  if (filters.from) params.set('from', filters.from);
  if (filters.to) params.set('to', filters.to);
  if (page > 1) params.set('page', String(page));
  return params;
}

export function hasLogFilters(filters: TLogFilters): boolean {
  return Boolean(filters.status || filters.search || filters.from || filters.to);
}

/** The API query of the filters; From and To are whole days of the business's time zone. */
export function logQuery(filters: TLogFilters, timeZone: string): TLogQuery {
  const from = filters.from ? dayStart(filters.from, timeZone) : null;
  const to = filters.to ? dayEnd(filters.to, timeZone) : null;
  return {
    ...(filters.status ? { status: filters.status } : {}),
    ...(filters.search ? { search: filters.search } : {}),
    ...(from ? { created_at__gte: from.toISOString() } : {}),
    ...(to ? { created_at__lte: to.toISOString() } : {}),
  };
}
