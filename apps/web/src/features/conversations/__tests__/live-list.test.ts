import type { TConversation } from '@titan/contracts';
import { describe, expect, it } from 'vitest';

import {
  applyConversationChange,
  applyMessageChange,
  flattenConversations,
  flattenMessages,
  nextConversationPage,
  type TConversationPage,
  type TConversationPages,
  type TMessagePages,
} from '../utils/live-list';
import { conversation, message } from './fixtures';

const T1 = '2026-03-01T10:00:00.000Z';
const T2 = '2026-03-01T11:00:00.000Z';

/** Two loaded pages of a list whose total is `count`. */
function pages(first: TConversation[], second: TConversation[], count: number): TConversationPages<number> {
  return {
    pages: [
      { count, next: 2, previous: null, results: first },
      { count, next: null, previous: 1, results: second },
    ],
    pageParams: [1, 2],
  };
}

const a = conversation({ id: 1, title: 'A' });
const b = conversation({ id: 2, title: 'B' });
const c = conversation({ id: 3, title: 'C', last_message_at: T1 });

const ids = (data: TConversationPages<number> | undefined) => flattenConversations(data).map((row) => row.id);
const counts = (data: TConversationPages<number> | undefined) => data?.pages.map((p) => p.count);

describe('live conversation list', () => {
  it('puts an INSERT at the top and counts it', () => {
    const data = pages([a, b], [c], 5);
    const next = applyConversationChange(data, {
      event: 'INSERT',
      new: conversation({ id: 9 }),
      old: null,
      matches: true,
    });
    expect(ids(next)).toEqual([9, 1, 2, 3]);
    expect(counts(next)).toEqual([6, 6]);
  });

  it('does not duplicate or recount an INSERT it already has', () => {
    const next = applyConversationChange(pages([a, b], [c], 3), { event: 'INSERT', new: c, old: null });
    expect(ids(next)).toEqual([3, 1, 2]);
    expect(counts(next)).toEqual([3, 3]);
  });

  it('replaces in place an UPDATE whose last_message_at is unchanged', () => {
    const updated = { ...c, status: 'resolved' as const };
    // The change feed spells the old instant with microseconds and an offset.
    const next = applyConversationChange(pages([a, b], [c], 3), {
      event: 'UPDATE',
      new: updated,
      old: { last_message_at: '2026-03-01T10:00:00.000456+00:00' },
      matches: true,
    });
    expect(ids(next)).toEqual([1, 2, 3]);
    expect(flattenConversations(next)[2]!.status).toBe('resolved');
    expect(counts(next)).toEqual([3, 3]);
  });

  it('puts an UPDATE of a row it does not have at the top and counts it', () => {
    const next = applyConversationChange(pages([a, b], [c], 3), {
      event: 'UPDATE',
      new: conversation({ id: 7, last_message_at: T1 }),
      old: { last_message_at: T1 },
      matches: true,
    });
    expect(ids(next)).toEqual([7, 1, 2, 3]);
    expect(counts(next)).toEqual([4, 4]);
  });

  it('moves an UPDATE whose last_message_at changed to the top', () => {
    const next = applyConversationChange(pages([a, b], [c], 3), {
      event: 'UPDATE',
      new: { ...c, last_message_at: T2, title: 'C2' },
      old: { last_message_at: T1 },
      matches: true,
    });
    expect(ids(next)).toEqual([3, 1, 2]);
    expect(flattenConversations(next)[0]!.title).toBe('C2');
    expect(next?.pages[1]!.results).toEqual([]);
    expect(counts(next)).toEqual([3, 3]);
  });

  it('treats a first message (last_message_at null before) as changed', () => {
    const fresh = conversation({ id: 3, last_message_at: null });
    const next = applyConversationChange(pages([a, b], [fresh], 3), {
      event: 'UPDATE',
      new: { ...fresh, last_message_at: T2 },
      old: { last_message_at: null },
    });
    expect(ids(next)).toEqual([3, 1, 2]);
  });

  it('removes a row that left the filter (matches: false) and counts it out', () => {
    const next = applyConversationChange(pages([a, b], [c], 3), {
      event: 'UPDATE',
      new: { ...b, status: 'resolved' },
      old: { last_message_at: b.last_message_at },
      matches: false,
    });
    expect(ids(next)).toEqual([1, 3]);
    expect(counts(next)).toEqual([2, 2]);
  });

  it('ignores matches: false for a row it does not have', () => {
    const data = pages([a, b], [c], 3);
    const next = applyConversationChange(data, {
      event: 'UPDATE',
      new: conversation({ id: 42 }),
      old: { last_message_at: T1 },
      matches: false,
    });
    expect(next).toBe(data);
  });

  it('leaves a list that is not loaded alone', () => {
    expect(applyConversationChange(undefined, { event: 'INSERT', new: a, old: null })).toBeUndefined();
  });

  it('shows each row once when pages overlap', () => {
    expect(ids(pages([a, b], [b, c], 3))).toEqual([1, 2, 3]);
  });
});

describe('infinite scroll under live changes', () => {
  /** A server's list of `n` conversations, answering pages of 10 as the API does. */
  function serverOf(n: number) {
    const rows = Array.from({ length: n }, (_, i) => conversation({ id: i + 1, title: `C${i + 1}` }));
    const page = (p: number): TConversationPage => ({
      count: rows.length,
      next: null,
      previous: null,
      results: rows.slice((p - 1) * 10, p * 10),
    });
    return { rows, page };
  }
  /** Scrolls to the end: asks for pages as the list does until it says there is no more. */
  function scrollToEnd(server: ReturnType<typeof serverOf>, data: TConversationPages<number>) {
    for (let guard = 0; guard < 50; guard++) {
      const next = nextConversationPage(data.pages, 10);
      if (next === undefined) return data;
      data = { pages: [...data.pages, server.page(next)], pageParams: [...data.pageParams, next] };
    }
    throw new Error('never finished');
  }
  const loaded = (server: ReturnType<typeof serverOf>, pageCount: number): TConversationPages<number> => ({
    pages: Array.from({ length: pageCount }, (_, i) => server.page(i + 1)),
    pageParams: Array.from({ length: pageCount }, (_, i) => i + 1),
  });

  it('shows every row once when rows leave the list live between pages', () => {
    const server = serverOf(35);
    let data = loaded(server, 2);
    // Two loaded rows are resolved while the list shows active ones: they leave both lists.
    for (const index of [12, 3]) {
      const [gone] = server.rows.splice(index, 1);
      data = applyConversationChange(data, { event: 'UPDATE', new: gone!, old: null, matches: false })!;
    }
    expect(ids(scrollToEnd(server, data))).toEqual(server.rows.map((row) => row.id));
  });

  it('shows every row once when rows arrive at the top live between pages', () => {
    const server = serverOf(25);
    let data = loaded(server, 1);
    for (const id of [100, 101, 102]) {
      const fresh = conversation({ id, title: `New ${id}` });
      server.rows.unshift(fresh);
      data = applyConversationChange(data, { event: 'INSERT', new: fresh, old: null })!;
    }
    expect(ids(scrollToEnd(server, data))).toEqual(server.rows.map((row) => row.id));
  });

  it('stops when a page brings nothing new, whatever the count says', () => {
    const server = serverOf(20);
    const data = loaded(server, 2);
    const stale = { ...data, pages: data.pages.map((p) => ({ ...p, count: 25 })) };
    // It asks once more (page 3, empty) and stops there.
    expect(nextConversationPage(stale.pages, 10)).toBe(3);
    const withEmpty = [...stale.pages, { ...server.page(3), count: 25 }];
    expect(nextConversationPage(withEmpty, 10)).toBeUndefined();
    const repeated = [...stale.pages, { ...server.page(2), count: 25 }];
    expect(nextConversationPage(repeated, 10)).toBeUndefined();
  });
});

describe('live messages', () => {
  const m1 = message({ id: 1, content: 'one' });
  const m2 = message({ id: 2, content: 'two' });
  const m3 = message({ id: 3, content: 'three' });
  // pages[0] is the newest page; pages[1] reaches back.
  const data: TMessagePages<string | null> = { pages: [[m2, m3], [m1]], pageParams: [null, '2'] };

  it('reads oldest first across pages', () => {
    expect(flattenMessages(data).map((m) => m.content)).toEqual(['one', 'two', 'three']);
  });

  it('appends an insert after the newest', () => {
    const next = applyMessageChange(data, { event: 'INSERT', new: message({ id: 4, content: 'four' }) });
    expect(flattenMessages(next).map((m) => m.content)).toEqual(['one', 'two', 'three', 'four']);
  });

  it('replaces an update by id, wherever it is loaded', () => {
    const next = applyMessageChange(data, { event: 'UPDATE', new: { ...m1, status: 'read' } });
    expect(flattenMessages(next).map((m) => [m.id, m.status])).toEqual([
      [1, 'read'],
      [2, 'sent'],
      [3, 'sent'],
    ]);
  });

  it('does not append a second copy of a message it has (own send, then the live insert)', () => {
    const next = applyMessageChange(data, { event: 'INSERT', new: { ...m3 } });
    expect(flattenMessages(next)).toHaveLength(3);
  });

  it('ignores an update of a message it has not loaded', () => {
    expect(applyMessageChange(data, { event: 'UPDATE', new: message({ id: 99 }) })).toBe(data);
  });

  it('matches WhatsApp ids as strings', () => {
    const wa = message({ id: 'wamid.ABC', status: 'sent' });
    const withWa: TMessagePages<string | null> = { pages: [[wa]], pageParams: [null] };
    const next = applyMessageChange(withWa, { event: 'UPDATE', new: { ...wa, status: 'delivered' } });
    expect(flattenMessages(next)[0]!.status).toBe('delivered');
  });
});
