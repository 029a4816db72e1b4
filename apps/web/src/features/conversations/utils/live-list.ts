// Applies realtime changes to the cached lists (spec section 4). Conversations: an INSERT goes to the
// top; an UPDATE whose last_message_at is unchanged replaces the row in place (or goes to the top when
// the list lacks it); an UPDATE whose last_message_at changed moves the row to the top; a change that
// no longer fits the list's filter (matches: false) removes the row. The total count follows, and
// infinite scroll asks for the page holding the next row (nextConversationPage). Messages: an insert appends, an update
// replaces the message with the same id.
import type { InfiniteData } from '@tanstack/react-query';
import type { TConversation, TMessage } from '@titan/contracts';

export type TConversationPage = {
  count: number;
  next: number | null;
  previous: number | null;
  results: TConversation[];
};

/** Generic in the page parameter: the query hooks type it `unknown`, the options `number`. */
export type TConversationPages<P = unknown> = InfiniteData<TConversationPage, P>;

export type TConversationChange = {
  event: 'INSERT' | 'UPDATE';
  new: TConversation;
  old: { last_message_at: string | null } | null;
  /** Absent means the row fits the subscription's filter. */
  matches?: boolean | undefined;
};

/** Every conversation of the loaded pages, once each, in list order. */
export function flattenConversations<P>(data: TConversationPages<P> | undefined): TConversation[] {
  if (!data) return [];
  const seen = new Set<number>();
  const rows: TConversation[] = [];
  for (const page of data.pages) {
    for (const row of page.results) {
      if (seen.has(row.id)) continue;
      seen.add(row.id);
      rows.push(row);
    }
  }
  return rows;
}

/**
 * The page to ask for next, or undefined when the list is complete. The loaded rows, kept live,
 * are the server's first rows, so the next row is at offset `loaded`: ask for the page holding it
 * (the rows before it on that page are dropped as duplicates). Counting pages instead skips a row
 * for each one that left the list live, since the server's later pages move up by one.
 */
export function nextConversationPage(pages: TConversationPage[], pageSize: number): number | undefined {
  const last = pages.at(-1);
  if (!last || last.results.length === 0) return undefined;
  const loaded = flattenConversations({ pages, pageParams: [] }).length;
  if (loaded >= last.count) return undefined;
  // A page that brought nothing new: the server holds no more than is loaded (the count ran ahead).
  const before = flattenConversations({ pages: pages.slice(0, -1), pageParams: [] }).length;
  if (pages.length > 1 && before === loaded) return undefined;
  return Math.floor(loaded / pageSize) + 1;
}

function sameInstant(a: string | null | undefined, b: string | null | undefined): boolean {
  if (!a || !b) return !a && !b;
  // The change feed and the API may spell one instant differently (microseconds, offsets).
  return Date.parse(a) === Date.parse(b);
}

function contains<P>(data: TConversationPages<P>, id: number): boolean {
  return data.pages.some((page) => page.results.some((row) => row.id === id));
}

function withCount<P>(data: TConversationPages<P>, delta: number): TConversationPages<P> {
  if (delta === 0) return data;
  return {
    ...data,
    pages: data.pages.map((page) => ({ ...page, count: Math.max(0, page.count + delta) })),
  };
}

function without<P>(data: TConversationPages<P>, id: number): TConversationPages<P> {
  return {
    ...data,
    pages: data.pages.map((page) =>
      page.results.some((row) => row.id === id)
        ? { ...page, results: page.results.filter((row) => row.id !== id) }
        : page,
    ),
  };
}

/** Replaces the conversation wherever it is loaded; answers the data unchanged when it is absent. */
export function replaceConversation<P>(
  data: TConversationPages<P>,
  conversation: TConversation,
): TConversationPages<P> {
  if (!contains(data, conversation.id)) return data;
  return {
    ...data,
    pages: data.pages.map((page) =>
      page.results.some((row) => row.id === conversation.id)
        ? { ...page, results: page.results.map((row) => (row.id === conversation.id ? conversation : row)) }
        : page,
    ),
  };
}

function toTop<P>(data: TConversationPages<P>, conversation: TConversation): TConversationPages<P> {
  const rest = without(data, conversation.id);
  const [first, ...others] = rest.pages;
  if (!first) return data;
  return { ...rest, pages: [{ ...first, results: [conversation, ...first.results] }, ...others] };
}

export function applyConversationChange<P>(
  data: TConversationPages<P> | undefined,
  change: TConversationChange,
): TConversationPages<P> | undefined {
  if (!data || data.pages.length === 0) return data;
  const row = change.new;
  const present = contains(data, row.id);
  if (change.matches === false) return present ? withCount(without(data, row.id), -1) : data;
  if (change.event === 'UPDATE' && present && sameInstant(change.old?.last_message_at, row.last_message_at)) {
    return replaceConversation(data, row);
  }
  return withCount(toTop(data, row), present ? 0 : 1);
}

/** Messages pages: pages[0] is the newest page; each page is oldest first. */
export type TMessagePages<P = unknown> = InfiniteData<TMessage[], P>;

/** The loaded messages, oldest first, once each. */
export function flattenMessages<P>(data: TMessagePages<P> | undefined): TMessage[] {
  if (!data) return [];
  const seen = new Set<string>();
  const out: TMessage[] = [];
  for (let i = data.pages.length - 1; i >= 0; i -= 1) {
    for (const message of data.pages[i] ?? []) {
      const key = String(message.id);
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(message);
    }
  }
  return out;
}

function hasMessage<P>(data: TMessagePages<P>, id: TMessage['id']): boolean {
  return data.pages.some((page) => page.some((message) => String(message.id) === String(id)));
}

export function applyMessageChange<P>(
  data: TMessagePages<P> | undefined,
  change: { event: 'INSERT' | 'UPDATE'; new: TMessage },
): TMessagePages<P> | undefined {
  if (!data || data.pages.length === 0) return data;
  const message = change.new;
  if (hasMessage(data, message.id)) {
    return {
      ...data,
      pages: data.pages.map((page) =>
        page.some((m) => String(m.id) === String(message.id))
          ? page.map((m) => (String(m.id) === String(message.id) ? message : m))
          : page,
      ),
    };
  }
  // An update of a message that is not loaded (an older page) has nothing to replace.
  if (change.event === 'UPDATE') return data;
  const [newest, ...older] = data.pages;
  return { ...data, pages: [[...(newest ?? []), message], ...older] };
}
