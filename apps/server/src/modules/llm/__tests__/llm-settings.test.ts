// A business's own model in Settings: the key write-only and sealed at rest, another business never
// sees or changes it, the server's LLM_* as the fallback, the connection test, and usage recorded.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { DEFAULT_SIM_KEY, DEFAULT_SIM_MODEL, startLlmSim, type LlmSim } from '@titan/llm-sim';
import { LLM_ERRORS, type TBusiness, type TLlmSettings } from '@titan/contracts';
import { createTestRuntime, type TestRuntime } from '../../../testing/test-runtime';
import { addMember, as, createBusiness, signUp, type Session } from '../../../testing/identity';
import { createSecretBox } from '../../../platform/crypto';
import { listUsage } from '../llm.repository';
import { baseUrlProblem, resolveLlm, type LlmDeps } from '../llm.service';

let sim: LlmSim;
let rt: TestRuntime;
let app: FastifyInstance;
let owner: Session;
let business: TBusiness;
let other: { owner: Session; business: TBusiness };

beforeAll(async () => {
  sim = await startLlmSim();
  rt = await createTestRuntime();
  app = rt.app!;
  await app.ready();
  owner = await signUp(app, rt.mailer);
  business = await createBusiness(app, owner, 'Models Inc');
  const otherOwner = await signUp(app, rt.mailer);
  other = { owner: otherOwner, business: await createBusiness(app, otherOwner, 'Other Co') };
}, 120_000);
afterAll(async () => {
  await rt?.destroy();
  await sim?.close();
});

async function call(method: string, url: string, payload?: object, s = owner, b = business) {
  return app.inject({ method: method as 'GET', url, headers: as(s, b), ...(payload ? { payload } : {}) });
}

const settingsOf = async (s = owner, b = business): Promise<TLlmSettings> => {
  const res = await call('GET', '/api/config/llm/', undefined, s, b);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().result;
};

describe('LLM settings', () => {
  it('says plainly that no model is configured, and the test answers 409 with the same words', async () => {
    expect(await settingsOf()).toEqual({
      base_url: null,
      model: null,
      embedding_model: null,
      has_api_key: false,
      source: 'none',
      effective_model: null,
      configured: false,
      updated_at: null,
      usage_30d: { calls: 0, prompt_tokens: 0, completion_tokens: 0 },
    });
    const test = await call('POST', '/api/config/llm/test/');
    expect(test.statusCode).toBe(409);
    expect(test.json().message).toBe(LLM_ERRORS.notConfigured);
  });

  it('keeps the API key write-only and sealed: never answered, and the stored value is not the key', async () => {
    const key = 'sk-business-own-key-0123456789';
    const saved = await call('PUT', '/api/config/llm/', {
      base_url: `${sim.baseUrl}/`,
      model: 'titan-sim-1',
      api_key: key,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().result).toMatchObject({
      base_url: sim.baseUrl,
      model: 'titan-sim-1',
      has_api_key: true,
      source: 'business',
      effective_model: 'titan-sim-1',
      configured: true,
    });
    expect(saved.body).not.toContain(key);
    expect((await call('GET', '/api/config/llm/')).body).not.toContain(key);

    const [row] = await rt.database.query<{ api_key_sealed: string }>(
      'select api_key_sealed from llm_settings where business_id = $1',
      [business.id],
    );
    expect(row!.api_key_sealed).not.toContain(key);
    expect(row!.api_key_sealed).toMatch(/^v1\./);
    expect(createSecretBox(rt.config.APP_SECRET).open(row!.api_key_sealed)).toBe(key);

    // Saved again without a key: the stored one stays; null removes it.
    await call('PUT', '/api/config/llm/', { base_url: sim.baseUrl, model: 'titan-sim-1' });
    expect((await settingsOf()).has_api_key).toBe(true);
    await call('PUT', '/api/config/llm/', { base_url: sim.baseUrl, model: 'titan-sim-1', api_key: null });
    expect((await settingsOf()).has_api_key).toBe(false);
  });

  it('tests the connection by calling the model once: its reply, or why it failed', async () => {
    await call('PUT', '/api/config/llm/', {
      base_url: sim.baseUrl,
      model: DEFAULT_SIM_MODEL,
      api_key: DEFAULT_SIM_KEY,
    });
    const good = await call('POST', '/api/config/llm/test/');
    expect(good.statusCode, good.body).toBe(200);
    expect(good.json().result).toMatchObject({ ok: true, source: 'business', model: DEFAULT_SIM_MODEL });
    expect(good.json().result.message).toContain('You said: This is a connection test.');

    await call('PUT', '/api/config/llm/', {
      base_url: sim.baseUrl,
      model: DEFAULT_SIM_MODEL,
      api_key: 'sk-wrong',
    });
    const badKey = await call('POST', '/api/config/llm/test/');
    expect(badKey.json().result).toMatchObject({ ok: false, message: LLM_ERRORS.unauthorized });

    await call('PUT', '/api/config/llm/', {
      base_url: sim.baseUrl,
      model: 'no-such-model',
      api_key: DEFAULT_SIM_KEY,
    });
    const badModel = await call('POST', '/api/config/llm/test/');
    expect(badModel.json().result.message).toContain('no model named “no-such-model”');

    const usage = await listUsage(rt.database.db, business.id, { purpose: 'connection_test' });
    expect(usage.map((u) => [u.status, u.errorKind])).toEqual([
      ['ok', null],
      ['error', 'unauthorized'],
      ['error', 'model_not_found'],
    ]);
    expect(usage[0]).toMatchObject({
      source: 'business',
      model: DEFAULT_SIM_MODEL,
      createdBy: owner.user.pk,
    });
    expect(usage[0]!.promptTokens).toBeGreaterThan(0);
    expect((await settingsOf()).usage_30d.calls).toBe(3);
  });

  it("keeps each business's settings to itself: another business neither sees nor changes them", async () => {
    await call('PUT', '/api/config/llm/', {
      base_url: sim.baseUrl,
      model: DEFAULT_SIM_MODEL,
      api_key: DEFAULT_SIM_KEY,
    });
    const before = await settingsOf();
    expect(await settingsOf(other.owner, other.business)).toMatchObject({
      source: 'none',
      base_url: null,
      usage_30d: { calls: 0 },
    });
    // Their owner with this business's code is refused.
    expect((await call('GET', '/api/config/llm/', undefined, other.owner, business)).statusCode).toBe(403);
    expect(
      (
        await call(
          'PUT',
          '/api/config/llm/',
          { base_url: 'http://127.0.0.1:1/v1', model: 'x' },
          other.owner,
          business,
        )
      ).statusCode,
    ).toBe(403);
    expect((await call('DELETE', '/api/config/llm/', undefined, other.owner, business)).statusCode).toBe(403);
    // Their own save and delete touch only their row.
    await call(
      'PUT',
      '/api/config/llm/',
      { base_url: 'http://127.0.0.1:1/v1', model: 'theirs' },
      other.owner,
      other.business,
    );
    await call('DELETE', '/api/config/llm/', undefined, other.owner, other.business);
    const after = await settingsOf();
    expect({ ...after, usage_30d: null }).toEqual({ ...before, usage_30d: null });
  });

  it('lets agents read whether AI is available, but only owners and admins change it', async () => {
    const agent = await addMember(app, rt.mailer, owner, business, 'agent');
    expect((await settingsOf(agent, business)).configured).toBe(true);
    const put = await call('PUT', '/api/config/llm/', { base_url: sim.baseUrl, model: 'x' }, agent, business);
    expect(put.statusCode).toBe(403);
    expect((await call('POST', '/api/config/llm/test/', undefined, agent, business)).statusCode).toBe(403);
  });

  it('refuses a URL that is not http(s) and an empty model, with field messages', async () => {
    const res = await call('PUT', '/api/config/llm/', { base_url: 'ftp://models.example/v1', model: ' ' });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().result).sort()).toEqual(['base_url', 'model']);
    const withKey = await call('PUT', '/api/config/llm/', {
      base_url: 'https://sk-1:x@models.example/v1',
      model: 'm',
    });
    expect(withKey.json().result).toEqual({
      base_url: ['Put the key in the API key field, not in the URL.'],
    });
  });

  it('falls back to the server model when the business forgets its own', async () => {
    // The server's LLM_* as the composition root read them (the same deps object the routes use).
    const deps = rt.services.llm;
    const config = deps.config;
    deps.config = {
      ...config,
      LLM_BASE_URL: sim.baseUrl,
      LLM_API_KEY: DEFAULT_SIM_KEY,
      LLM_MODEL: DEFAULT_SIM_MODEL,
    };
    try {
      const del = await call('DELETE', '/api/config/llm/');
      expect(del.json().result).toMatchObject({
        source: 'server',
        base_url: null,
        effective_model: DEFAULT_SIM_MODEL,
        configured: true,
      });
      const test = await call('POST', '/api/config/llm/test/');
      expect(test.json().result).toMatchObject({ ok: true, source: 'server' });
    } finally {
      deps.config = config;
    }
    expect((await settingsOf()).source).toBe('none');
  });
});

describe('LLM base URLs in production', () => {
  const deps = (addresses: Record<string, string[]>): LlmDeps =>
    ({
      config: { NODE_ENV: 'production', HOST: '0.0.0.0' },
      resolveHost: async (host: string) => {
        const found = addresses[host];
        if (!found) throw new Error('ENOTFOUND');
        return found;
      },
    }) as unknown as LlmDeps;

  it('takes https to public addresses only', async () => {
    const d = deps({ 'api.example.com': ['93.184.216.34'], 'internal.example.com': ['10.0.0.5'] });
    expect(await baseUrlProblem(d, 'https://api.example.com/v1')).toBeNull();
    expect(await baseUrlProblem(d, 'http://api.example.com/v1')).toBe(LLM_ERRORS.httpsRequired);
    expect(await baseUrlProblem(d, 'https://internal.example.com/v1')).toBe(LLM_ERRORS.privateAddress);
    expect(await baseUrlProblem(d, 'https://127.0.0.1:8000/v1')).toBe(LLM_ERRORS.privateAddress);
    expect(await baseUrlProblem(d, 'https://[::1]/v1')).toBe(LLM_ERRORS.privateAddress);
    expect(await baseUrlProblem(d, 'https://nowhere.example.com/v1')).toBe(LLM_ERRORS.hostNotFound);
  });
});

describe('LLM settings: the key follows its URL', () => {
  const rowKey = async () =>
    (
      await rt.database.query<{ api_key_sealed: string | null }>(
        'select api_key_sealed from llm_settings where business_id = $1',
        [business.id],
      )
    )[0]!.api_key_sealed;

  it('a new base URL without the key again drops the stored key', async () => {
    const key = 'sk-owner-key-0123456789';
    await call('PUT', '/api/config/llm/', { base_url: sim.baseUrl, model: DEFAULT_SIM_MODEL, api_key: key });
    expect((await settingsOf()).has_api_key).toBe(true);
    const elsewhere = `${sim.baseUrl.replace(/\/v1$/, '')}/elsewhere/v1`;
    const moved = await call('PUT', '/api/config/llm/', { base_url: elsewhere, model: DEFAULT_SIM_MODEL });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().result).toMatchObject({ base_url: elsewhere, has_api_key: false });
    expect(await rowKey()).toBeNull();
    // Back to the first URL: the key does not come back either.
    await call('PUT', '/api/config/llm/', { base_url: sim.baseUrl, model: DEFAULT_SIM_MODEL });
    expect((await settingsOf()).has_api_key).toBe(false);
    // Given with the new URL, it is kept; the same URL again keeps it.
    const given = await call('PUT', '/api/config/llm/', {
      base_url: elsewhere,
      model: DEFAULT_SIM_MODEL,
      api_key: DEFAULT_SIM_KEY,
    });
    expect(given.json().result).toMatchObject({ has_api_key: true });
    const same = await call('PUT', '/api/config/llm/', { base_url: `${elsewhere}/`, model: 'other-model' });
    expect(same.json().result).toMatchObject({ has_api_key: true, model: 'other-model' });
    expect(createSecretBox(rt.config.APP_SECRET).open((await rowKey())!)).toBe(DEFAULT_SIM_KEY);
  });
});

describe('LLM settings when guarded', () => {
  /** The routes' own deps, guarded as in production (or with HOST beyond loopback) for one test. */
  async function guarded(
    env: Partial<LlmDeps['config']>,
    resolveHost: (host: string) => Promise<string[]>,
    work: () => Promise<void>,
  ) {
    const deps = rt.services.llm;
    const saved = { config: deps.config, resolveHost: deps.resolveHost };
    deps.config = { ...deps.config, ...env };
    deps.resolveHost = resolveHost;
    try {
      await work();
    } finally {
      Object.assign(deps, saved);
    }
  }

  it('refuses IPv4-mapped loopback and other inside addresses in every spelling, and names resolving inside', async () => {
    await guarded(
      { NODE_ENV: 'production' },
      async (host) => (host === 'llm.inside.example' ? ['::ffff:10.0.0.8'] : ['93.184.216.34']),
      async () => {
        for (const base_url of [
          'https://[::ffff:127.0.0.1]/v1',
          'https://[::ffff:7f00:1]:8443/v1',
          'https://[::127.0.0.1]/v1',
          'https://[::]/v1',
          'https://2130706433/v1',
          'https://0177.0.0.1/v1',
          'https://0x7f.1/v1',
          'https://0.0.0.0/v1',
          'https://169.254.169.254/v1',
          'https://100.64.0.1/v1',
          'https://[fd00::1]/v1',
          'https://[fe80::1]/v1',
          'https://llm.inside.example/v1',
        ]) {
          const res = await call('PUT', '/api/config/llm/', { base_url, model: 'm' });
          expect(res.statusCode, base_url).toBe(400);
          expect(res.json().result, base_url).toEqual({ base_url: [LLM_ERRORS.privateAddress] });
        }
      },
    );
  });

  it('outside production too, when HOST is not a loopback address', async () => {
    await guarded(
      { NODE_ENV: 'development', HOST: '0.0.0.0' },
      async () => ['93.184.216.34'],
      async () => {
        const http = await call('PUT', '/api/config/llm/', { base_url: sim.baseUrl, model: 'm' });
        expect(http.json().result).toEqual({ base_url: [LLM_ERRORS.httpsRequired] });
        const mapped = await call('PUT', '/api/config/llm/', {
          base_url: 'https://[::ffff:127.0.0.1]/v1',
          model: 'm',
        });
        expect(mapped.json().result).toEqual({ base_url: [LLM_ERRORS.privateAddress] });
      },
    );
  });

  it("sends the business model's calls through the guarded dispatcher: a name rebound to loopback is refused at connect time", async () => {
    let lookups = 0;
    // Public for the check on save and the check before the call; loopback for the socket.
    const rebinding = async () => (++lookups <= 2 ? ['93.184.216.34'] : ['127.0.0.1']);
    await guarded({ NODE_ENV: 'production' }, rebinding, async () => {
      const saved = await call('PUT', '/api/config/llm/', {
        base_url: `https://llm.rebind.example:${new URL(sim.baseUrl).port}/v1`,
        model: DEFAULT_SIM_MODEL,
        api_key: DEFAULT_SIM_KEY,
      });
      expect(saved.statusCode, saved.body).toBe(200);
      const test = await call('POST', '/api/config/llm/test/');
      expect(test.statusCode, test.body).toBe(200);
      expect(test.json().result).toMatchObject({ ok: false, message: LLM_ERRORS.privateAddress });
      expect(lookups).toBe(3);
    });
    const usage = await listUsage(rt.database.db, business.id, { purpose: 'connection_test' });
    // Refused, not retried: one attempt.
    expect(usage.at(-1)).toMatchObject({ status: 'error', errorKind: 'blocked', attempts: 1 });
  });
});

describe('LLM configuration', () => {
  it('needs LLM_MODEL with LLM_BASE_URL, defaults the URL to OpenAI, and never prints the key', async () => {
    const { parseConfigEnv, ConfigError } = await import('../../../config');
    expect(() =>
      parseConfigEnv({ LLM_BASE_URL: 'http://127.0.0.1:4020/v1', LLM_API_KEY: 'sk-secret' }),
    ).toThrow(ConfigError);
    const bad = (() => {
      try {
        parseConfigEnv({ LLM_BASE_URL: 'not a url', LLM_MODEL: 'm', LLM_API_KEY: 'sk-secret' });
      } catch (err) {
        return String(err);
      }
      return 'no error';
    })();
    expect(bad).toContain('LLM_BASE_URL: expected an http(s):// URL');
    expect(bad).not.toContain('sk-secret');
    const cfg = parseConfigEnv({ LLM_MODEL: 'gpt-4o-mini', LLM_BASE_URL: 'https://api.example.com/v1/' });
    expect(cfg).toMatchObject({
      LLM_BASE_URL: 'https://api.example.com/v1',
      LLM_TIMEOUT_MS: 60_000,
      LLM_MAX_RETRIES: 2,
    });
    const deps = { db: rt.database.db, config: { LLM_MODEL: 'gpt-4o-mini' } } as unknown as LlmDeps;
    expect(await resolveLlm(deps, other.business.id)).toEqual({
      source: 'server',
      baseUrl: 'https://api.openai.com/v1',
      apiKey: null,
      model: 'gpt-4o-mini',
      embeddingModel: null,
    });
  });
});
