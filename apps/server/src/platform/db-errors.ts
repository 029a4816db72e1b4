// Failed statements, for the error handler and the logs: their SQLSTATE, and what a log line may
// say of them. drizzle wraps the driver's error (`cause`) in one whose message and `params` hold
// every bound value (emails, password hashes, message text); those never reach a log.

type DriverError = Error & {
  code: string;
  severity?: string;
  table?: string;
  column?: string;
  constraint?: string;
  routine?: string;
};

const SQLSTATE = /^[0-9A-Z]{5}$/;

/** The PostgreSQL (or PGlite) error in `err`'s cause chain, if any. */
export function driverErrorOf(err: unknown): DriverError | null {
  let e: unknown = err;
  for (let depth = 0; depth < 5 && e instanceof Error; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && SQLSTATE.test(code) && 'severity' in e) return e as DriverError;
    e = (e as { cause?: unknown }).cause;
  }
  return null;
}

export const sqlStateOf = (err: unknown): string | undefined => driverErrorOf(err)?.code;

/** A statement's verb and first table, e.g. `insert into "users"`: what it did, never a value. */
export function statementSummary(sql: string): string {
  const verb = /^\s*(with|select|insert|update|delete)\b/i.exec(sql)?.[1]?.toLowerCase() ?? 'statement';
  const table = /\b(from|into|update)\s+("[^"]+"(?:\."[^"]+")?|[a-z_][\w.]*)/i.exec(sql);
  return table ? `${verb} … ${table[1]!.toLowerCase()} ${table[2]}` : verb;
}

/** Set by db/statement.ts on a failed prepared statement: its name, or its summary. */
export const STATEMENT = Symbol('titan.statement');

/**
 * What a log line says of a failed statement: SQLSTATE, where it failed and which statement; not
 * the driver's message or detail either, which quote the offending value
 * (`invalid input syntax for type integer: "…"`, `Key (email)=(…) already exists.`).
 */
export function describeDatabaseError(err: Error, driver: DriverError): Record<string, unknown> {
  const query = (err as { query?: unknown }).query;
  const statement =
    (err as { [STATEMENT]?: string })[STATEMENT] ??
    (driver as { [STATEMENT]?: string })[STATEMENT] ??
    (typeof query === 'string' ? statementSummary(query) : undefined);
  const message = `database error ${driver.code}${statement ? ` in ${statement}` : ''}`;
  const stackFrames = err.stack?.slice(err.stack.indexOf('\n    at ')) ?? '';
  return {
    type: err.name,
    message,
    sqlstate: driver.code,
    ...(statement ? { statement } : {}),
    ...(driver.routine ? { routine: driver.routine } : {}),
    ...(driver.table ? { table: driver.table } : {}),
    ...(driver.column ? { column: driver.column } : {}),
    ...(driver.constraint ? { constraint: driver.constraint } : {}),
    stack: `${err.name}: ${message}${stackFrames.startsWith('\n') ? stackFrames : ''}`,
  };
}
