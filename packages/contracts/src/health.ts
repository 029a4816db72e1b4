import { z } from 'zod';

export const ZHealth = z.object({
  status: z.enum(['ok', 'degraded']),
  database: z.object({
    ok: z.boolean(),
    kind: z.enum(['pglite', 'postgres']),
    latency_ms: z.number(),
  }),
  version: z.string(),
  uptime_seconds: z.number(),
});
export type THealth = z.infer<typeof ZHealth>;
