// The one database handle: embedded PGlite when DATABASE_URL is unset, node-postgres when set.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { vector } from '@electric-sql/pglite-pgvector';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import type { Logger } from 'pino';
import * as schema from './schema';
import { lockDataDir } from './lock';
import { prepareStatements } from './prepared';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** The transaction `db.transaction(async (tx) => …)` hands its callback. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** The database or a transaction in it: what a repository function runs its statements on. */
export type Queryable = Db | Tx;
export type DatabaseKind = 'pglite' | 'postgres';
export type Row = Record<string, unknown>;
export type NotificationHandler = (payload: string) => void;

export type Database = {
  kind: DatabaseKind;
  db: Db;
  /** One parameterised statement. */
  query<T extends Row = Row>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Parameterless SQL that may hold several statements; answers the last statement's rows. */
  exec(sql: string): Promise<Row[]>;
  /**
   * LISTEN on a channel; resolves once listening. The returned function stops it. `onReconnect`
   * runs each time a dropped connection is listening again (notifications in between are lost).
   */
  listen(
    channel: string,
    handler: NotificationHandler,
    onReconnect?: () => void,
  ): Promise<() => Promise<void>>;
  /**
   * NOTIFY on a channel. On PostgreSQL over a connection of its own, outside the pool: a pool
   * busy with requests never holds a notification (the change feed's heartbeat) up.
   */
  notify(channel: string, payload: string): Promise<void>;
  close(): Promise<void>;
};

export type DatabaseOptions =
  | {
      kind: 'postgres';
      url: string;
      poolMax?: number;
      /** Prepared statements kept per connection (db/prepared.ts); 0 prepares none. Default 500. */
      statementCache?: number;
      logger?: Logger;
    }
  /** dataDir undefined = in memory (tests). */
  | { kind: 'pglite'; dataDir?: string; logger?: Logger };

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  return options.kind === 'postgres' ? openPostgres(options) : openPglite(options);
}

/** Extensions the migrations create (the directory's trigram search: 0032; knowledge embeddings: 0064). */
const PGLITE_EXTENSIONS = { pg_trgm, vector };

async function openPglite(options: { dataDir?: string }): Promise<Database> {
  let release = () => {};
  let pglite: PGlite;
  if (options.dataDir) {
    mkdirSync(options.dataDir, { recursive: true });
    release = lockDataDir(options.dataDir);
    try {
      pglite = await PGlite.create(join(options.dataDir, 'pglite'), { extensions: PGLITE_EXTENSIONS });
    } catch (err) {
      release();
      throw err;
    }
  } else {
    pglite = await PGlite.create({ extensions: PGLITE_EXTENSIONS });
  }
  const db = drizzlePglite({ client: pglite, schema }) as unknown as Db;
  return {
    kind: 'pglite',
    db,
    async query<T extends Row>(sql: string, params: unknown[] = []) {
      const res = await pglite.query<T>(sql, params);
      return res.rows;
    },
    async exec(sql) {
      const results = await pglite.exec(sql);
      return (results.at(-1)?.rows ?? []) as Row[];
    },
    async notify(channel, payload) {
      await pglite.query('select pg_notify($1, $2)', [channel, payload]);
    },
    async listen(channel, handler) {
      const unlisten = await pglite.listen(channel, handler);
      return async () => {
        if (!pglite.closed) await unlisten();
      };
    },
    async close() {
      try {
        if (!pglite.closed) await pglite.close();
      } finally {
        release();
      }
    },
  };
}

async function openPostgres(options: {
  url: string;
  poolMax?: number;
  statementCache?: number;
  logger?: Logger;
}): Promise<Database> {
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolMax ?? 10,
    // Titan's statements are short lookups: JIT compilation, set off by cost estimates (e.g. of a
    // generate_series), spends 100+ ms compiling what runs in under a millisecond.
    options: '-c jit=off',
  });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', (err) => options.logger?.warn({ err }, 'idle database connection lost'));
  prepareStatements(pool, options.statementCache ?? 500);
  await pool.query('select 1'); // fail at boot, not on the first request
  const db = drizzlePg({ client: pool, schema }) as unknown as Db;
  const listeners = new Set<PgListener>();
  // One connection, made on first use and replaced by the pool if it drops.
  let notifier: pg.Pool | null = null;
  return {
    kind: 'postgres',
    db,
    async query<T extends Row>(sql: string, params: unknown[] = []) {
      const res = await pool.query(sql, params);
      return res.rows as T[];
    },
    async exec(sql) {
      const res: pg.QueryResult | pg.QueryResult[] = await pool.query(sql);
      return (Array.isArray(res) ? (res.at(-1)?.rows ?? []) : res.rows) as Row[];
    },
    async notify(channel, payload) {
      if (!notifier) {
        notifier = new pg.Pool({ connectionString: options.url, max: 1, application_name: 'titan-notify' });
        notifier.on('error', (err) => options.logger?.warn({ err }, 'notify connection lost'));
      }
      await notifier.query('select pg_notify($1, $2)', [channel, payload]);
    },
    async listen(channel, handler, onReconnect) {
      const listener = new PgListener(options.url, channel, handler, options.logger, onReconnect);
      listeners.add(listener);
      await listener.start();
      return async () => {
        listeners.delete(listener);
        await listener.stop();
      };
    },
    async close() {
      await Promise.all([...listeners].map((l) => l.stop()));
      listeners.clear();
      await notifier?.end();
      notifier = null;
      await pool.end();
    },
  };
}

/** A dedicated connection holding LISTEN, reconnecting with backoff when the server drops it. */
class PgListener {
  private client: pg.Client | null = null;
  private stopped = false;
  private retry: NodeJS.Timeout | null = null;

  constructor(
    private readonly url: string,
    private readonly channel: string,
    private readonly handler: NotificationHandler,
    private readonly logger?: Logger,
    private readonly onReconnect?: () => void,
    private attempt = 0,
    private dropped = false,
  ) {}

  async start(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url });
    client.on('notification', (msg) => {
      if (msg.channel === this.channel) this.handler(msg.payload ?? '');
    });
    client.on('error', (err) => {
      this.logger?.warn({ err }, 'change feed connection lost; reconnecting');
      this.reconnect();
    });
    await client.connect();
    await client.query(`LISTEN ${pg.escapeIdentifier(this.channel)}`);
    this.client = client;
    this.attempt = 0;
    if (this.dropped) {
      this.dropped = false;
      this.onReconnect?.();
    }
  }

  private reconnect(): void {
    this.dropped = true;
    const dead = this.client;
    this.client = null;
    dead?.end().catch(() => {});
    if (this.stopped || this.retry) return;
    const delay = Math.min(30_000, 250 * 2 ** this.attempt++);
    this.retry = setTimeout(() => {
      this.retry = null;
      if (this.stopped) return;
      this.start().catch(() => this.reconnect());
    }, delay);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retry) clearTimeout(this.retry);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => {});
  }
}
