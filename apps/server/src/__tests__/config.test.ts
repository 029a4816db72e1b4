import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, parseConfigEnv } from '../config';

function problemsOf(env: NodeJS.ProcessEnv): string[] {
  try {
    parseConfigEnv(env);
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  return [];
}

describe('configuration', () => {
  it('names PORT when it is not a port number', () => {
    const problems = problemsOf({ PORT: 'abc' });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^PORT: expected a port number \(1-65535\) \(got "abc"\)$/);
  });

  it('names every bad variable at once', () => {
    const problems = problemsOf({
      PORT: '70000',
      DATABASE_URL: 'mysql://localhost/x',
      RUN_WORKERS: 'sometimes',
      CORS_ORIGINS: 'not a url',
      LOG_LEVEL: 'loud',
    });
    expect(problems.map((p) => p.split(':')[0]).sort()).toEqual(
      ['CORS_ORIGINS', 'DATABASE_URL', 'LOG_LEVEL', 'PORT', 'RUN_WORKERS'].sort(),
    );
  });

  it('defaults and checks the public-side quotas and retention', () => {
    expect(parseConfigEnv({})).toMatchObject({
      VISITOR_UPLOADS_DAILY_MB: 500,
      VISITOR_UPLOADS_DAILY_FILES: 1000,
      VISITOR_UPLOADS_RETENTION_DAYS: 30,
      ANALYTICS_EVENTS_DAILY_MAX: 5000,
      ANALYTICS_EVENTS_RETENTION_DAYS: 90,
    });
    expect(problemsOf({ VISITOR_UPLOADS_DAILY_MB: '0', ANALYTICS_EVENTS_RETENTION_DAYS: 'forever' })).toEqual(
      [
        'VISITOR_UPLOADS_DAILY_MB: expected a whole number of megabytes (1-1000000) (got "0")',
        'ANALYTICS_EVENTS_RETENTION_DAYS: expected a whole number of days (1-3650) (got "forever")',
      ],
    );
  });

  it('takes COOKIE_DOMAIN as a bare domain and names what is wrong with anything else', () => {
    expect(parseConfigEnv({ COOKIE_DOMAIN: '.Example.com' }).COOKIE_DOMAIN).toBe('.example.com');
    expect(parseConfigEnv({ COOKIE_DOMAIN: '' }).COOKIE_DOMAIN).toBeUndefined();
    for (const bad of ['https://example.com', 'example.com:443', 'example.com/app', 'exa mple.com'])
      expect(problemsOf({ COOKIE_DOMAIN: bad })).toEqual([
        `COOKIE_DOMAIN: expected a domain such as .example.com (no scheme, port or path) (got ${JSON.stringify(bad)})`,
      ]);
  });

  it('takes DNS_SERVERS as IP:port entries and the email DNS names as host names', () => {
    expect(parseConfigEnv({}).DNS_SERVERS).toBeUndefined();
    expect(parseConfigEnv({ DNS_SERVERS: '127.0.0.1:5300, [::1]:5353,10.0.0.2,::1' }).DNS_SERVERS).toEqual([
      '127.0.0.1:5300',
      '[::1]:5353',
      '10.0.0.2:53',
      '[::1]:53',
    ]);
    for (const bad of ['localhost:53', '127.0.0.1:0', '127.0.0.1:70000', 'dns.example.com', ',']) {
      expect(problemsOf({ DNS_SERVERS: bad })[0]).toMatch(
        /^DNS_SERVERS: expected comma-separated IP:port entries/,
      );
    }
    expect(parseConfigEnv({}).DNS_TIMEOUT_MS).toBe(4000);
    expect(parseConfigEnv({ EMAIL_RETURN_PATH_HOST: 'RP.Titan.Example' }).EMAIL_RETURN_PATH_HOST).toBe(
      'rp.titan.example',
    );
    expect(problemsOf({ EMAIL_SPF_INCLUDE: 'https://x.example' })[0]).toMatch(
      /^EMAIL_SPF_INCLUDE: expected a host name/,
    );
  });

  it('requires APP_SECRET in production', () => {
    expect(problemsOf({ NODE_ENV: 'production' })).toEqual([
      'APP_SECRET: required when NODE_ENV=production (at least 32 characters)',
    ]);
    expect(problemsOf({ NODE_ENV: 'production', APP_SECRET: 'x'.repeat(32) })).toEqual([]);
  });

  it('applies the documented defaults', () => {
    const cfg = parseConfigEnv({});
    expect(cfg).toMatchObject({
      PORT: 3000,
      DATA_DIR: './data',
      AUTH_SITE_URL: '/login',
      RUN_WORKERS: true,
      CORS_ORIGINS: [],
    });
    expect(cfg.DATABASE_URL).toBeUndefined();
    expect(parseConfigEnv({ RUN_WORKERS: 'false' }).RUN_WORKERS).toBe(false);
  });

  it('binds to 127.0.0.1 outside production unless HOST says otherwise, to every address in production', () => {
    expect(parseConfigEnv({}).HOST).toBe('127.0.0.1');
    expect(parseConfigEnv({ NODE_ENV: 'test' }).HOST).toBe('127.0.0.1');
    expect(parseConfigEnv({ HOST: '' }).HOST).toBe('127.0.0.1');
    expect(parseConfigEnv({ HOST: '::1' }).HOST).toBe('::1');
    expect(parseConfigEnv({ NODE_ENV: 'production', APP_SECRET: 'x'.repeat(32) }).HOST).toBe('0.0.0.0');
  });

  it('refuses a bind other than loopback without SMTP_URL outside production, naming the fix', () => {
    const problem =
      'SMTP_URL: required when HOST is not a loopback address (HOST=0.0.0.0): without it mail is kept in ' +
      'the development outbox, readable only on this machine; set SMTP_URL, or HOST=127.0.0.1 to keep ' +
      'mail in the local outbox';
    expect(problemsOf({ HOST: '0.0.0.0' })).toEqual([problem]);
    expect(problemsOf({ NODE_ENV: 'test', HOST: '0.0.0.0' })).toEqual([problem]);
    expect(problemsOf({ HOST: '192.168.1.20' })[0]).toMatch(
      /^SMTP_URL: required when HOST is not a loopback/,
    );
    expect(problemsOf({ HOST: '0.0.0.0', SMTP_URL: 'smtp://127.0.0.1:2525' })).toEqual([]);
    for (const host of ['127.0.0.1', 'localhost', '::1', '127.0.0.2'])
      expect(problemsOf({ HOST: host })).toEqual([]);
    // Production has no outbox at all; it warns about a missing SMTP_URL at start instead.
    expect(problemsOf({ NODE_ENV: 'production', APP_SECRET: 'x'.repeat(32), HOST: '0.0.0.0' })).toEqual([]);
  });

  it('generates APP_SECRET once into DATA_DIR, private to the owner, and keeps it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'titan-cfg-'));
    const first = loadConfig({ DATA_DIR: dir });
    const second = loadConfig({ DATA_DIR: dir });
    expect(first.APP_SECRET.length).toBeGreaterThanOrEqual(32);
    expect(second.APP_SECRET).toBe(first.APP_SECRET);
    expect(readFileSync(join(dir, 'app-secret'), 'utf8').trim()).toBe(first.APP_SECRET);
    expect(statSync(join(dir, 'app-secret')).mode & 0o777).toBe(0o600);
    expect(first.PUBLIC_URL).toBe('http://localhost:3000');
  });
});
