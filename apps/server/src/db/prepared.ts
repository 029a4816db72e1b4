// Statements with parameters run as named (prepared) statements on PostgreSQL: each connection
// parses a statement's text once and PostgreSQL may keep its plan, instead of parsing and planning
// every call (node-postgres's unnamed statement). Measured on the inbound-mail bench: PostgreSQL's
// CPU a mail 12.6–13.2 ms → 8.5–10.0 ms, most of it planning saved.
//
// What the server does with a prepared statement is what it does for every driver that prepares
// (JDBC past its threshold, Rails, Prisma): the first five calls get a plan made for their values;
// after that a generic plan is used only when it costs no more than those did. Statements that
// must always be planned for their values say so themselves (`set local plan_cache_mode`).
//
// Each connection keeps at most `limit` statements, least recently used dropped first (DEALLOCATE),
// so SQL whose text varies (lists of parameters of any length) cannot fill the server's memory. A
// connection behind a pooler that cannot carry prepared statements (PgBouncer in transaction mode
// before 1.21) sets DATABASE_STATEMENT_CACHE=0.
import { createHash } from 'node:crypto';
import type pg from 'pg';

/**
 * Searches stay unnamed, planned for each call's values: how many rows a pattern or a text query
 * matches decides their plan (an index for a rare word, another way for a common one), and a
 * generic plan cannot know it.
 */
const SEARCH_OPERATORS = /\b(?:i?like|similar\s+to)\b|@@|<->|<=>|<#>/i;

type QueryConfig = { text?: string; name?: string; values?: unknown[] };
type Callback = (err: Error | null, result?: unknown) => void;
/** node-postgres's record of the statements this connection has parsed (name → text). */
type Connection = { parsedStatements: Record<string, string> };

export function prepareStatements(pool: pg.Pool, limit: number): void {
  if (limit <= 0) return;
  pool.on('connect', (client) => nameStatements(client, limit));
}

function nameStatements(client: pg.PoolClient, limit: number): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  const connection = (client as unknown as { connection: Connection }).connection;
  /** Text digest → statement name, least recently used first. */
  const names = new Map<string, string>();
  let made = 0;

  const nameOf = (text: string): string | undefined => {
    if (SEARCH_OPERATORS.test(text)) return undefined;
    const key = createHash('sha1').update(text).digest('base64url');
    const known = names.get(key);
    if (known !== undefined) {
      names.delete(key);
      names.set(key, known);
      return known;
    }
    // A name is never used again once dropped: a call queued before the drop keeps its own.
    const name = `t_${(made++).toString(36)}_${key.slice(0, 16)}`;
    names.set(key, name);
    if (names.size > limit) {
      const [oldKey, oldName] = names.entries().next().value as [string, string];
      names.delete(oldKey);
      drop(oldName);
    }
    return name;
  };

  // Queued behind the calls before it; a statement not parsed yet (its call is still queued) stays.
  const drop = (name: string) => {
    if (connection.parsedStatements[name] === undefined) return;
    (query(`deallocate "${name}"`) as Promise<unknown>).then(
      () => delete connection.parsedStatements[name],
      () => undefined, // e.g. inside a failed transaction: the statement stays, still known
    );
  };

  // After a schema change a prepared statement whose result columns changed fails once
  // ("cached plan must not change result type"): drop it so the next call prepares it again.
  const forgetOnStaleResult = (name: string, err: unknown) => {
    if ((err as { code?: string } | null)?.code !== '0A000') return;
    for (const [key, value] of names) if (value === name) names.delete(key);
    drop(name);
  };

  (client as unknown as { query: unknown }).query = (
    config: unknown,
    values?: unknown,
    callback?: unknown,
  ) => {
    let named: string | undefined;
    if (typeof config === 'string' && Array.isArray(values) && values.length > 0) {
      named = nameOf(config);
      if (named !== undefined) {
        config = { text: config, values, name: named };
        values = undefined;
      }
    } else if (config !== null && typeof config === 'object' && !('submit' in config)) {
      const c = config as QueryConfig;
      const params = c.values ?? (Array.isArray(values) ? values : undefined);
      if (!c.name && typeof c.text === 'string' && params && params.length > 0) {
        named = nameOf(c.text);
        config = { ...c, name: named };
      }
    }
    if (named === undefined) return query(config, values, callback);
    const name = named;
    const cb = typeof values === 'function' ? (values as Callback) : (callback as Callback | undefined);
    if (cb) {
      const rest = typeof values === 'function' ? [] : [values];
      return query(config, ...rest, (err: Error | null, result?: unknown) => {
        if (err) forgetOnStaleResult(name, err);
        cb(err, result);
      });
    }
    return (query(config, values) as Promise<unknown>).catch((err: unknown) => {
      forgetOnStaleResult(name, err);
      throw err;
    });
  };
}
