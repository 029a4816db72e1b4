import type { TLlmSettings, TLlmTestResult } from '@titan/contracts';
import { LLM_ERRORS } from '@titan/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';

import { ACME, ok, profile, signIn } from '../../../test/api';
import { renderApp } from '../../../test/render-app';
import { server } from '../../../test/server';
import { LLM_STRINGS as S } from '../strings';

const NONE: TLlmSettings = {
  base_url: null,
  model: null,
  has_api_key: false,
  source: 'none',
  effective_model: null,
  embedding_model: null,
  configured: false,
  updated_at: null,
  usage_30d: { calls: 0, prompt_tokens: 0, completion_tokens: 0 },
};

type Body = Record<string, unknown>;

function setUp(role: 'owner' | 'agent', initial = NONE, testAnswer?: TLlmTestResult) {
  signIn();
  const state = { settings: initial, puts: [] as Body[], tests: 0 };
  server.use(
    http.get('/api/users/profile/', () => ok(profile({ businesses: [{ ...ACME, role }] }))),
    http.get('/api/config/llm/', () => ok(state.settings)),
    http.put('/api/config/llm/', async ({ request }) => {
      const body = (await request.json()) as Body;
      state.puts.push(body);
      state.settings = {
        ...state.settings,
        base_url: String(body.base_url),
        model: String(body.model),
        has_api_key: body.api_key === null ? false : Boolean(body.api_key) || state.settings.has_api_key,
        source: 'business',
        effective_model: String(body.model),
        configured: true,
        updated_at: `2026-11-24T10:00:0${state.puts.length}Z`,
      };
      return ok(state.settings);
    }),
    http.post('/api/config/llm/test/', () => {
      state.tests += 1;
      return ok(testAnswer);
    }),
  );
  return state;
}

describe('AI model settings', () => {
  it('connects a model with a write-only key, then tests the connection', { timeout: 30_000 }, async () => {
    const state = setUp('owner', NONE, {
      ok: true,
      source: 'business',
      model: 'gpt-4o-mini',
      message: 'OK',
      duration_ms: 42,
    });
    const user = userEvent.setup();
    renderApp('/engage/settings/ai-model');

    const tabs = await screen.findByRole('navigation', { name: 'Settings' });
    expect(within(tabs).getByRole('link', { name: 'AI model' })).toHaveAttribute('aria-current', 'page');
    expect(await screen.findByTestId('llm-in-use')).toHaveTextContent(S.inUse.none);
    expect(screen.getByRole('button', { name: S.test })).toBeDisabled();
    expect(screen.getByLabelText(S.apiKey)).toHaveAttribute('type', 'password');

    await user.type(screen.getByLabelText(S.baseUrl), 'https://api.openai.com/v1');
    await user.type(screen.getByLabelText(S.model), 'gpt-4o-mini');
    await user.type(screen.getByLabelText(S.apiKey), 'sk-test-key');
    await user.click(screen.getByRole('button', { name: S.save }));
    await waitFor(() =>
      expect(state.puts).toEqual([
        { base_url: 'https://api.openai.com/v1', model: 'gpt-4o-mini', api_key: 'sk-test-key' },
      ]),
    );
    expect(await screen.findByTestId('llm-in-use')).toHaveTextContent(S.inUse.business('gpt-4o-mini'));
    // The key is never shown again: its box is empty, saying one is stored.
    const key = screen.getByLabelText(S.apiKey);
    expect(key).toHaveValue('');
    expect(key).toHaveAttribute('placeholder', S.apiKeyStored);

    // Saving again with the box empty keeps the stored key (no api_key sent).
    await user.clear(screen.getByLabelText(S.model));
    await user.type(screen.getByLabelText(S.model), 'gpt-4o');
    await user.click(screen.getByRole('button', { name: S.save }));
    await waitFor(() => expect(state.puts).toHaveLength(2));
    expect(state.puts[1]).toEqual({ base_url: 'https://api.openai.com/v1', model: 'gpt-4o' });

    await user.click(screen.getByRole('button', { name: S.test }));
    expect(await screen.findByText(S.testOk('gpt-4o-mini', 42))).toBeInTheDocument();
    expect(state.tests).toBe(1);
  });

  it('shows why the test failed, in the server’s words', async () => {
    setUp(
      'owner',
      {
        ...NONE,
        base_url: 'https://api.openai.com/v1',
        model: 'gpt-4o',
        has_api_key: true,
        source: 'business',
        effective_model: 'gpt-4o',
        configured: true,
        updated_at: '2026-11-24T10:00:00Z',
      },
      { ok: false, source: 'business', model: 'gpt-4o', message: LLM_ERRORS.unauthorized, duration_ms: 12 },
    );
    const user = userEvent.setup();
    renderApp('/engage/settings/ai-model');
    await user.click(await screen.findByRole('button', { name: S.test }));
    expect(await screen.findByText(S.testFailed('gpt-4o'))).toBeInTheDocument();
    expect(screen.getByText(LLM_ERRORS.unauthorized)).toBeInTheDocument();
  });

  it('shows agents which model is in use, without the form', async () => {
    setUp('agent', { ...NONE, source: 'server', effective_model: 'llama3.1', configured: true });
    renderApp('/engage/settings/ai-model');
    expect(await screen.findByTestId('llm-in-use')).toHaveTextContent(S.inUse.server('llama3.1'));
    expect(screen.getByText(S.readOnly)).toBeInTheDocument();
    expect(screen.queryByLabelText(S.baseUrl)).not.toBeInTheDocument();
  });
});
