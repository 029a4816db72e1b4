// The bench's settings from the environment.

/** An integer setting of at least `min`, or `fallback` when unset; anything else stops the run. */
export function intFromEnv(key, fallback, min = 1) {
  const raw = process.env[key];
  if (raw === undefined || raw === '') return fallback;
  const v = Number(raw);
  if (!Number.isInteger(v) || v < min) throw new Error(`${key} must be an integer >= ${min} (got ${raw})`);
  return v;
}
