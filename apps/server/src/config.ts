// Every environment variable Titan reads, validated once at boot by one zod schema.
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { join, resolve } from 'node:path';
import { z } from 'zod';

const boolish = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { message: 'expected true or false' })
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const optionalUrl = z.url({ message: 'expected a URL' }).optional();

/** localhost, 127.0.0.0/8 and ::1: the only hosts where plain http:// to a provider is acceptable. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

function defaultHost(nodeEnv: 'development' | 'production' | 'test'): string {
  return nodeEnv === 'production' ? '0.0.0.0' : '127.0.0.1';
}

/** A whole number from `min` to `max`, with one message naming the range and the unit. */
const wholeNumber = (unit: string, min: number, max: number) => {
  const message = `expected a whole number of ${unit} (${min}-${max})`;
  return z.coerce.number({ message }).int({ message }).min(min, { message }).max(max, { message });
};

/** A DNS server as node:dns takes it (`ip`, `ip:port`, `[ipv6]:port`), or null when it is not one. */
export function dnsServerOf(entry: string): string | null {
  const bracketed = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(entry);
  const [host, port] = bracketed
    ? [bracketed[1]!, bracketed[2]]
    : isIP(entry) === 6
      ? [entry, undefined]
      : (entry.split(':') as [string, string | undefined]);
  if (!isIP(host) || (bracketed === null && isIP(host) === 6 && port !== undefined)) return null;
  if (port !== undefined && (!/^\d+$/.test(port) || Number(port) < 1 || Number(port) > 65535)) return null;
  const p = port ?? '53';
  return isIP(host) === 6 ? `[${host}]:${p}` : `${host}:${p}`;
}

const hostName = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^(?=.{1,253}$)[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/, {
    message: 'expected a host name such as rp.example.com',
  });

export const ZConfigEnv = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce
    .number({ message: 'expected a port number (1-65535)' })
    .int({ message: 'expected a port number (1-65535)' })
    .min(1, { message: 'expected a port number (1-65535)' })
    .max(65535, { message: 'expected a port number (1-65535)' })
    .default(3000),
  // Unset: 127.0.0.1 outside production, 0.0.0.0 in production (resolved in parseConfigEnv).
  HOST: z.string().min(1).optional(),
  PUBLIC_URL: optionalUrl,
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, { message: 'expected a postgres:// or postgresql:// URL' })
    .optional(),
  DATABASE_POOL_MAX: z.coerce.number({ message: 'expected a number' }).int().min(1).max(500).default(10),
  /** Prepared statements kept per pooled connection (db/prepared.ts); 0 prepares none (poolers). */
  DATABASE_STATEMENT_CACHE: z.coerce
    .number({ message: 'expected a number' })
    .int()
    .min(0)
    .max(10_000)
    .default(500),
  APP_SECRET: z.string().min(32, { message: 'must be at least 32 characters' }).optional(),
  AUTH_SITE_URL: z.string().min(1).default('/login'),
  /** The parent product domain the web app keeps its session cookies on; host-only when unset. */
  COOKIE_DOMAIN: z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^\.?[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/, {
      message: 'expected a domain such as .example.com (no scheme, port or path)',
    })
    .optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, { message: 'expected an smtp:// or smtps:// URL' })
    .optional(),
  MAIL_FROM: z.string().min(3).default('Titan <no-reply@localhost>'),
  S3_BUCKET: z.string().min(3).optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ENDPOINT: optionalUrl,
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_FORCE_PATH_STYLE: boolish.default(false),
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
  WHATSAPP_GRAPH_URL: z
    .url({ protocol: /^https?$/, message: 'expected an http(s):// URL' })
    .default('https://graph.facebook.com/v21.0')
    .transform((v) => v.replace(/\/+$/, '')),
  WHATSAPP_RETRY_DELAYS_MS: z
    .string()
    .regex(/^\d+(,\d+)*$/, { message: 'expected comma-separated milliseconds, e.g. 1000,4000,16000' })
    .default('1000,4000,16000')
    .transform((v) => v.split(',').map(Number)),
  WHATSAPP_EVENTS_RETENTION_DAYS: z.coerce
    .number({ message: 'expected a whole number of days (1-3650)' })
    .int({ message: 'expected a whole number of days (1-3650)' })
    .min(1, { message: 'expected a whole number of days (1-3650)' })
    .max(3650, { message: 'expected a whole number of days (1-3650)' })
    .default(30),
  /** Per business and UTC day: what visitors may upload through the public chat. */
  VISITOR_UPLOADS_DAILY_MB: wholeNumber('megabytes', 1, 1_000_000).default(500),
  VISITOR_UPLOADS_DAILY_FILES: wholeNumber('files', 1, 1_000_000).default(1000),
  /** Chat files nobody sent in a message are deleted (table and storage) this many days after upload. */
  VISITOR_UPLOADS_RETENTION_DAYS: wholeNumber('days', 1, 3650).default(30),
  /** Browser error reports stored per business (or for all anonymous reports) and UTC day. */
  ANALYTICS_EVENTS_DAILY_MAX: wholeNumber('events', 1, 10_000_000).default(5000),
  ANALYTICS_EVENTS_RETENTION_DAYS: wholeNumber('days', 1, 3650).default(90),
  /**
   * An optional outside analytics provider: its web config (GET <url>/apps/<app id>/web-config with
   * the API key in a header) is served at GET /api/analytics/web-config/. Unset: first-party only.
   */
  ANALYTICS_PROVIDER_URL: optionalUrl,
  ANALYTICS_APP_ID: z.string().min(1).optional(),
  ANALYTICS_API_KEY: z.string().min(1).optional(),
  ANALYTICS_API_KEY_HEADER: z.string().min(1).default('X-API-Key'),
  /** Audit log rows older than this are deleted (0: kept for ever). */
  AUDIT_LOG_RETENTION_DAYS: wholeNumber('days', 0, 36500).default(365),
  /** Submissions a QR visitor form takes per hour: from one client address, and in all. */
  QR_FORM_SUBMISSIONS_PER_IP_HOUR: wholeNumber('submissions', 1, 1_000_000).default(20),
  QR_FORM_SUBMISSIONS_PER_FORM_HOUR: wholeNumber('submissions', 1, 10_000_000).default(1000),
  /**
   * DNS servers (comma-separated host:port, IPv6 as [addr]:port) that domain verification asks
   * directly instead of walking to each domain's authoritative name servers: tools/dns-sim in tests
   * and the demo.
   */
  DNS_SERVERS: z
    .string()
    .transform((v) =>
      v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    )
    .pipe(
      z
        .array(
          z.string().refine((s) => dnsServerOf(s) !== null, {
            message: 'expected comma-separated IP:port entries, e.g. 127.0.0.1:5300 or [::1]:5300',
          }),
        )
        .min(1, { message: 'expected comma-separated IP:port entries, e.g. 127.0.0.1:5300 or [::1]:5300' }),
    )
    .transform((list) => list.map((s) => dnsServerOf(s)!))
    .optional(),
  /** How long one DNS question of domain verification waits for an answer. */
  DNS_TIMEOUT_MS: wholeNumber('milliseconds', 100, 60_000).default(4000),
  /** Titan's SPF record that sending domains include (default `_spf.` + PUBLIC_URL's host). */
  EMAIL_SPF_INCLUDE: hostName.optional(),
  /** Titan's bounce host: each domain's `bounces.` name is a CNAME to it (default `rp.` + PUBLIC_URL's host). */
  EMAIL_RETURN_PATH_HOST: hostName.optional(),
  /** Inbound SMTP for bounces (RFC 3464) and complaints (RFC 5965) to VERP addresses; off when unset. */
  BOUNCE_SMTP_PORT: z.coerce
    .number({ message: 'expected a port number (1-65535)' })
    .int({ message: 'expected a port number (1-65535)' })
    .min(1, { message: 'expected a port number (1-65535)' })
    .max(65535, { message: 'expected a port number (1-65535)' })
    .optional(),
  /**
   * Threads that build, DKIM-sign and send mail over SMTP_URL (the main thread renders and records
   * it); unset: one per core, at most 4; 0: all on the main thread.
   */
  EMAIL_SMTP_THREADS: z.coerce
    .number({ message: 'expected a whole number from 0 to 16' })
    .int({ message: 'expected a whole number from 0 to 16' })
    .min(0, { message: 'expected a whole number from 0 to 16' })
    .max(16, { message: 'expected a whole number from 0 to 16' })
    .optional(),
  /** Waits before each new attempt of a mail the server deferred (4xx, connection lost); one per entry. */
  EMAIL_RETRY_DELAYS_MS: z
    .string()
    .regex(/^\d+(,\d+)*$/, { message: 'expected comma-separated milliseconds, e.g. 5000,20000,45000' })
    // A deferred mail waits `queued`; one untouched for a minute is sent by the spine's recovery.
    .refine((v) => v.split(',').every((ms) => Number(ms) <= 55_000), {
      message:
        'expected each wait at most 55000 ms (a queued mail older than a minute is sent by the recovery job)',
    })
    .default('5000,20000,45000')
    .transform((v) => v.split(',').map(Number)),
  /**
   * The server's OpenAI-compatible model, used by businesses that set none of their own (engage.md
   * §6): on with LLM_MODEL; LLM_BASE_URL defaults to OpenAI's API then.
   */
  LLM_BASE_URL: z
    .url({ protocol: /^https?$/, message: 'expected an http(s):// URL, e.g. https://api.openai.com/v1' })
    .transform((v) => v.replace(/\/+$/, ''))
    .optional(),
  // No bounds: a failed check would print the value, and this one is a secret.
  LLM_API_KEY: z.string().optional(),
  LLM_MODEL: z.string().trim().min(1).max(200).optional(),
  /**
   * The server's embedding model at LLM_BASE_URL (`/embeddings`), for knowledge-base hybrid search;
   * unset: full text alone.
   */
  LLM_EMBEDDING_MODEL: z.string().trim().min(1).max(200).optional(),
  /** How long one LLM call may wait for an answer (a stream: for its next piece). */
  LLM_TIMEOUT_MS: wholeNumber('milliseconds', 1000, 600_000).default(60_000),
  /** New attempts after a 429, a 5xx or a network error (with backoff, honouring Retry-After). */
  LLM_MAX_RETRIES: wholeNumber('retries', 0, 10).default(2),
  /** A JSON file of plugin manifests added to the catalogue (engage.md §6). */
  PLUGIN_MANIFESTS_FILE: z.string().trim().min(1).optional(),
  /** Presence: a member with no realtime connection left goes offline after this many seconds. */
  PRESENCE_GRACE_SECONDS: wholeNumber('seconds', 5, 3600).default(60),
  /** How long one call to an MCP server or plugin endpoint may take. */
  OUTSIDE_TOOLS_TIMEOUT_MS: wholeNumber('milliseconds', 1000, 600_000).default(30_000),
  /** Agent runs' cost: the model's price in US dollars per million prompt and completion tokens. */
  LLM_PRICE_PER_MILLION_TOKENS: z
    .string()
    .regex(/^\d+(\.\d+)?,\d+(\.\d+)?$/, { message: 'expected two prices in US dollars, e.g. 0.15,0.60' })
    .transform((v) => {
      const [prompt, completion] = v.split(',').map(Number);
      return { prompt: prompt!, completion: completion! };
    })
    .optional(),
  OIDC_ISSUER: z
    .url({ protocol: /^https?$/, message: 'expected an https:// URL' })
    .refine((v) => !URL.canParse(v) || v.startsWith('https:') || isLoopbackHost(new URL(v).hostname), {
      message: 'expected an https:// URL (http:// only for localhost)',
    })
    .optional(),
  OIDC_CLIENT_ID: z.string().min(1).max(500).optional(),
  OIDC_CLIENT_SECRET: z.string().min(1).max(2000).optional(),
  OIDC_LABEL: z
    .string()
    .trim()
    .min(1)
    .max(100, { message: 'must be at most 100 characters' })
    .default('Single sign-on'),
  /**
   * Billing with Chargebee (engage.md §8): the site (`acme` of acme.chargebee.com, or its test
   * site `acme-test`). Unset, billing is off and nothing is limited (self-hosting).
   */
  CHARGEBEE_SITE: z
    .string()
    .trim()
    .regex(/^[a-z0-9][a-z0-9-]{0,62}$/, { message: 'expected a Chargebee site name, e.g. acme-test' })
    .optional(),
  // No bounds: a failed check would print the value, and this one is a secret.
  CHARGEBEE_API_KEY: z.string().optional(),
  /** Chargebee's API root (default https://<site>.chargebee.com/api/v2); tools/chargebee-sim in tests. */
  CHARGEBEE_API_URL: z
    .url({ protocol: /^https?$/, message: 'expected an http(s):// URL' })
    .refine((v) => !URL.canParse(v) || v.startsWith('https:') || isLoopbackHost(new URL(v).hostname), {
      message: 'expected an https:// URL (http:// only for localhost)',
    })
    .transform((v) => v.replace(/\/+$/, ''))
    .optional(),
  /** The basic-auth credentials Chargebee's webhook is configured with. */
  CHARGEBEE_WEBHOOK_USERNAME: z.string().min(1).max(200).optional(),
  CHARGEBEE_WEBHOOK_PASSWORD: z.string().optional(),
  /** The pricing page (Chargebee's Pricing Table) businesses choose a plan on. */
  CHARGEBEE_PRICING_PAGE_ID: z.string().trim().min(1).max(100).default('titan'),
  /** Twilio's REST API (its Messages API); tools/sms-sim's URL for development, tests and the demo. */
  SMS_API_URL: z
    .url({ protocol: /^https?$/, message: 'expected an http(s):// URL' })
    .refine((v) => !URL.canParse(v) || v.startsWith('https:') || isLoopbackHost(new URL(v).hostname), {
      message: 'expected an https:// URL (http:// only for localhost)',
    })
    .default('https://api.twilio.com')
    .transform((v) => v.replace(/\/+$/, '')),
  /** Waits before each new attempt of a text Twilio refused for now (429, 5xx, connection lost). */
  SMS_RETRY_DELAYS_MS: z
    .string()
    .regex(/^\d+(,\d+)*$/, { message: 'expected comma-separated milliseconds, e.g. 1000,4000,16000' })
    // A waiting text is `queued`; one untouched for a minute is sent by the spine's recovery.
    .refine((v) => v.split(',').every((ms) => Number(ms) <= 55_000), {
      message:
        'expected each wait at most 55000 ms (a queued text older than a minute is sent by the recovery job)',
    })
    .default('1000,4000,16000')
    .transform((v) => v.split(',').map(Number)),
});

type ConfigEnv = Omit<z.infer<typeof ZConfigEnv>, 'HOST'> & { HOST: string };

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
  // Outside production Titan is reachable only from this machine unless HOST says otherwise.
  const cfg = { ...parsed.data, HOST: parsed.data.HOST ?? defaultHost(parsed.data.NODE_ENV) };
  const problems: string[] = [];
  if (cfg.NODE_ENV === 'production' && !cfg.APP_SECRET) {
    problems.push('APP_SECRET: required when NODE_ENV=production (at least 32 characters)');
  }
  if (cfg.NODE_ENV !== 'production' && !cfg.SMTP_URL && !isLoopbackHost(cfg.HOST)) {
    // The development outbox must never be reachable from another machine: mail holds sign-in and
    // password reset links.
    problems.push(
      `SMTP_URL: required when HOST is not a loopback address (HOST=${cfg.HOST}): without it mail is kept in ` +
        'the development outbox, readable only on this machine; set SMTP_URL, or HOST=127.0.0.1 to keep ' +
        'mail in the local outbox',
    );
  }
  if (cfg.LLM_BASE_URL && !cfg.LLM_MODEL) {
    problems.push('LLM_MODEL: required when LLM_BASE_URL is set (the model the AI features call)');
  }
  if (cfg.OIDC_ISSUER && !cfg.OIDC_CLIENT_ID) {
    problems.push('OIDC_CLIENT_ID: required when OIDC_ISSUER is set');
  }
  if (cfg.CHARGEBEE_SITE) {
    if (!cfg.CHARGEBEE_API_KEY) problems.push('CHARGEBEE_API_KEY: required when CHARGEBEE_SITE is set');
    if (!cfg.CHARGEBEE_WEBHOOK_USERNAME || !cfg.CHARGEBEE_WEBHOOK_PASSWORD) {
      problems.push(
        "CHARGEBEE_WEBHOOK_USERNAME: required with CHARGEBEE_WEBHOOK_PASSWORD when CHARGEBEE_SITE is set (the basic auth of Chargebee's webhook)",
      );
    }
  }
  if (problems.length > 0) throw new ConfigError(problems);
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
