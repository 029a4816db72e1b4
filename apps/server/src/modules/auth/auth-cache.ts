// A per-process memo of the auth guard's lookup (is this session live, which role has the user in
// this business), so a request costs no round trip for it. Writers here drop entries at once and
// every instance drops them on the change feed, so a revoked session or a changed membership stops
// working within the feed's delay (milliseconds); the TTL only bounds what a silent feed could miss.
import type { TRole } from '@titan/contracts';
import type { Db } from '../../db/client';
import type { Change, ChangeFeed } from '../../platform/change-feed';

export type Membership = { businessId: number; uniqueCode: string; role: TRole };

/** A live session and, when a business was named, the caller's membership in it. */
export type SessionLookup = { membership: Membership | null; expiresAt: Date };

type Entry = {
  sessionId: string;
  userId: number;
  businessId: number | null;
  value: SessionLookup;
  /** Epoch milliseconds: the TTL or the session's own expiry, whichever comes first. */
  staleAt: number;
};

export type AuthCacheOptions = { ttlMs?: number; maxEntries?: number; now?: () => number };

const keyOf = (sessionId: string, userId: number, code: string | null) =>
  `${sessionId}|${userId}|${code ?? ''}`;

export class AuthCache {
  private readonly entries = new Map<string, Entry>();
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;
  private feed: ChangeFeed | null = null;
  /**
   * Bumped by every invalidation: a lookup that started before one may have read the old row, so
   * its answer is used for that request but not kept.
   */
  private epoch = 0;

  constructor(options: AuthCacheOptions = {}) {
    this.ttlMs = options.ttlMs ?? 10_000;
    this.maxEntries = options.maxEntries ?? 10_000;
    this.now = options.now ?? Date.now;
  }

  get size(): number {
    return this.entries.size;
  }

  /** The remembered answer for (session, user, business code), if any: synchronously. */
  peek(sessionId: string, userId: number, code: string | null): SessionLookup | undefined {
    const key = keyOf(sessionId, userId, code);
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    this.entries.delete(key);
    if (hit.staleAt <= this.now()) return undefined;
    this.entries.set(key, hit); // most recently used goes last
    return hit.value;
  }

  /**
   * The remembered answer for (session, user, business code), or `load()`'s. Only positive answers
   * are kept: an unknown session or a non-member is asked again every time.
   */
  async lookup(
    sessionId: string,
    userId: number,
    code: string | null,
    load: () => Promise<SessionLookup | null>,
  ): Promise<SessionLookup | null> {
    const remembered = this.peek(sessionId, userId, code);
    if (remembered) return remembered;
    const key = keyOf(sessionId, userId, code);
    const now = this.now();
    const epoch = this.epoch;
    const value = await load();
    if (!value || (code !== null && !value.membership)) return value;
    // Without a working feed, other instances' changes would go unseen: answer, but do not keep.
    if (epoch !== this.epoch || (this.feed && !this.feed.healthy)) return value;
    const staleAt = Math.min(now + this.ttlMs, value.expiresAt.getTime());
    if (staleAt <= now) return value;
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, {
      sessionId,
      userId,
      businessId: value.membership?.businessId ?? null,
      value,
      staleAt,
    });
    return value;
  }

  forgetSession(sessionId: string): void {
    this.forget((e) => e.sessionId === sessionId);
  }

  forgetUser(userId: number): void {
    this.forget((e) => e.userId === userId);
  }

  forgetMembership(businessId: number, userId: number): void {
    this.forget((e) => e.businessId === businessId && e.userId === userId);
  }

  forgetBusiness(businessId: number): void {
    this.forget((e) => e.businessId === businessId);
  }

  clear(): void {
    this.epoch++;
    this.entries.clear();
  }

  /** Drops entries on every instance's changes; clears all when the feed may have missed some. */
  attach(feed: ChangeFeed): () => void {
    this.feed = feed;
    const stopChanges = feed.subscribe((change) => this.onChange(change));
    const stopResets = feed.onReset(() => this.clear());
    return () => {
      stopChanges();
      stopResets();
      if (this.feed === feed) this.feed = null;
      this.clear();
    };
  }

  private onChange(change: Change): void {
    const id = change.id;
    switch (change.table) {
      case 'sessions':
        if (id) this.forgetSession(id);
        return;
      case 'memberships':
        if (change.business_id && change.user_id) {
          this.forgetMembership(Number(change.business_id), Number(change.user_id));
        } else if (change.business_id) this.forgetBusiness(Number(change.business_id));
        return;
      case 'businesses':
        if (id) this.forgetBusiness(Number(id));
        return;
      default:
        return;
    }
  }

  private forget(matches: (entry: Entry) => boolean): void {
    this.epoch++;
    // Invalidations are rare (logout, role changes); a scan keeps the cache free of side indexes.
    for (const [key, entry] of this.entries) if (matches(entry)) this.entries.delete(key);
  }
}

// One cache per database handle, i.e. per app instance: services reach it from the `db` they are
// given, so writers need no extra dependency, and instances in one test process stay apart.
const caches = new WeakMap<Db, AuthCache>();

export function authCacheFor(db: Db, options?: AuthCacheOptions): AuthCache {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new AuthCache(options)));
  return cache;
}

/** After a session was revoked or deleted. */
export function forgetSession(db: Db, sessionId: string): void {
  caches.get(db)?.forgetSession(sessionId);
}

/** After all of a user's sessions were revoked. */
export function forgetUser(db: Db, userId: number): void {
  caches.get(db)?.forgetUser(userId);
}

/** After a membership's role changed or it was removed. */
export function forgetMembership(db: Db, businessId: number, userId: number): void {
  caches.get(db)?.forgetMembership(businessId, userId);
}
