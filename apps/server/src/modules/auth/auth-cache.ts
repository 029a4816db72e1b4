// A per-process memo of the auth guard's lookup (is this session live, which role has the user in
// this business), so a request costs no round trip for it. Writers here drop entries at once and
// every instance drops them on the change feed, so a revoked session or a changed membership stops
// working within the feed's delay (milliseconds); the TTL only bounds what a silent feed could miss.
// Every invalidation, local or heard on the feed, is also announced to `onRevoke` listeners (the
// realtime hub), so open sockets end with their session too.
import type { TRole } from '@titan/contracts';
import type { Db } from '../../db/client';
import { onBusinessRolesChanged } from '../../platform/roles';
import type { Change, ChangeFeed } from '../../platform/change-feed';
import type { Revocation } from '../../platform/realtime/realtime.topic';

export type Membership = {
  businessId: number;
  uniqueCode: string;
  /** The built-in role; 'agent' under a custom role (the base for owner counting). */
  role: TRole;
  /** A custom role in place of the built-in one, its permissions and chat group scope. */
  customRoleId?: number | null;
  customPermissions?: string[] | null;
  scopeGroupIds?: number[] | null;
};

/** A live session and, when a business was named, the caller's membership in it. */
export type SessionLookup = {
  membership: Membership | null;
  expiresAt: Date;
  /** The user must enrol in 2FA before reaching anything but the enrolment routes. */
  mfaEnrolmentRequired?: boolean;
};

type Entry = {
  sessionId: string;
  userId: number;
  businessId: number | null;
  value: SessionLookup;
  /** Epoch milliseconds: the TTL or the session's own expiry, whichever comes first. */
  staleAt: number;
};

export type { Revocation };
export type RevocationListener = (revocation: Revocation) => void;

export type AuthCacheOptions = { ttlMs?: number; maxEntries?: number; now?: () => number };

const keyOf = (sessionId: string, userId: number, code: string | null) =>
  `${sessionId}|${userId}|${code ?? ''}`;

export class AuthCache {
  private readonly entries = new Map<string, Entry>();
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;
  private feed: ChangeFeed | null = null;
  private readonly listeners = new Set<RevocationListener>();
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

  /** Tells `listener` of every invalidation, after the cache has dropped the entries. */
  onRevoke(listener: RevocationListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** False while the feed is known not to deliver: other instances' revocations go unheard. */
  get feedHealthy(): boolean {
    return !this.feed || this.feed.healthy;
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
   * are kept: an unknown session or a non-member is asked again every time. `fresh` skips the
   * remembered answer (and refreshes it).
   */
  async lookup(
    sessionId: string,
    userId: number,
    code: string | null,
    load: () => Promise<SessionLookup | null>,
    fresh = false,
  ): Promise<SessionLookup | null> {
    const remembered = fresh ? undefined : this.peek(sessionId, userId, code);
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
    this.announce({ kind: 'session', sessionId });
  }

  forgetUser(userId: number): void {
    this.forget((e) => e.userId === userId);
    this.announce({ kind: 'user', userId });
  }

  forgetMembership(businessId: number, userId: number): void {
    this.forget((e) => e.businessId === businessId && e.userId === userId);
    this.announce({ kind: 'membership', businessId, userId });
  }

  forgetBusiness(businessId: number): void {
    this.forget((e) => e.businessId === businessId);
    this.announce({ kind: 'business', businessId });
  }

  /** Visitors are not cached here; their revocation is only announced. */
  forgetCustomer(customerId: number): void {
    this.announce({ kind: 'customer', customerId });
  }

  clear(): void {
    this.epoch++;
    this.entries.clear();
  }

  /** Drops entries on every instance's changes; clears all when the feed may have missed some. */
  attach(feed: ChangeFeed): () => void {
    this.feed = feed;
    const stopChanges = feed.subscribe((change) => this.onChange(change));
    const stopResets = feed.onReset(() => {
      this.clear();
      this.announce({ kind: 'all' });
    });
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
      case 'custom_roles':
        // A role's permissions or scope changed: every member of that business is looked up again.
        if (change.business_id) this.forgetBusiness(Number(change.business_id));
        return;
      case 'businesses':
        if (id) this.forgetBusiness(Number(id));
        return;
      case 'customers':
        if (id) this.forgetCustomer(Number(id));
        return;
      default:
        return;
    }
  }

  private announce(revocation: Revocation): void {
    for (const listener of this.listeners) {
      // A failing listener must not fail the write that revoked (logout, reset…).
      try {
        listener(revocation);
      } catch {
        // listeners log their own failures
      }
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

/** After a custom role of the business changed: its members are looked up again. */
export function forgetBusiness(db: Db, businessId: number): void {
  caches.get(db)?.forgetBusiness(businessId);
}
onBusinessRolesChanged((db, businessId) => forgetBusiness(db as Db, businessId));

/** After a visitor's tokens were revoked or the customer deleted. */
export function forgetCustomer(db: Db, customerId: number): void {
  caches.get(db)?.forgetCustomer(customerId);
}
