// Every environment variable Titan reads, validated once at boot by one zod schema.
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';

const boolish = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { message: 'expected true or false' })
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const optionalUrl = z.url({ message: 'expected a URL' }).optional();

export const ZConfigEnv = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce
    .number({ message: 'expected a port number (1-65535)' })
    .int({ message: 'expected a port number (1-65535)' })
    .min(1, { message: 'expected a port number (1-65535)' })
    .max(65535, { message: 'expected a port number (1-65535)' })
    .default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  PUBLIC_URL: optionalUrl,
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, { message: 'expected a postgres:// or postgresql:// URL' })
    .optional(),
  DATABASE_POOL_MAX: z.coerce.number({ message: 'expected a number' }).int().min(1).max(500).default(10),
  APP_SECRET: z.string().min(32, { message: 'must be at least 32 characters' }).optional(),
  AUTH_SITE_URL: z.string().min(1).default('/login'),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, { message: 'expected an smtp:// or smtps:// URL' })
    .optional(),
  MAIL_FROM: z.string().min(3).default('Titan <no-reply@localhost>'),
  RUN_WORKERS: boolish.default(true),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  CORS_ORIGINS: z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((o) => o.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.url({ message: 'expected a comma-separated list of origins' }))),
  TRUST_PROXY: boolish.default(false),
  WEB_DIST_DIR: z.string().optional(),
});

type ConfigEnv = z.infer<typeof ZConfigEnv>;

export type Config = Omit<ConfigEnv, 'PUBLIC_URL' | 'APP_SECRET' | 'DATA_DIR'> & {
  PUBLIC_URL: string;
  APP_SECRET: string;
  DATA_DIR: string;
};

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Validates env without touching the disk; every bad variable is named in one error. */
export function parseConfigEnv(env: NodeJS.ProcessEnv): ConfigEnv {
  // Empty strings mean "unset", as in most .env tooling.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== ''));
  const parsed = ZConfigEnv.safeParse(cleaned);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      const key = String(issue.path[0] ?? 'environment');
      const got = env[key];
      return `${key}: ${issue.message}${got === undefined ? '' : ` (got ${JSON.stringify(got)})`}`;
    });
    throw new ConfigError([...new Set(problems)]);
  }
  const cfg = parsed.data;
  if (cfg.NODE_ENV === 'production' && !cfg.APP_SECRET) {
    throw new ConfigError(['APP_SECRET: required when NODE_ENV=production (at least 32 characters)']);
  }
  return cfg;
}

/**
 * Outside production a missing APP_SECRET is generated once into DATA_DIR, so signatures and
 * encrypted values stay valid across restarts.
 */
function resolveAppSecret(dataDir: string, given: string | undefined): string {
  if (given) return given;
  const file = join(dataDir, 'app-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, `${secret}\n`, { flag: 'wx', mode: 0o600 });
  chmodSync(file, 0o600);
  return secret;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const cfg = parseConfigEnv(env);
  const dataDir = resolve(cfg.DATA_DIR);
  return {
    ...cfg,
    DATA_DIR: dataDir,
    PUBLIC_URL: (cfg.PUBLIC_URL ?? `http://localhost:${cfg.PORT}`).replace(/\/+$/, ''),
    APP_SECRET: resolveAppSecret(dataDir, cfg.APP_SECRET),
  };
}
