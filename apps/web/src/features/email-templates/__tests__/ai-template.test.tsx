import {
  LLM_ERRORS,
  type TEmailTemplate,
  type TEmailTemplateStreamEvent,
  type TGeneratedEmailTemplate,
  type TLlmSettings,
} from '@titan/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';

import { ACME, fail, ok, profile, signIn } from '../../../test/api';
import { renderApp } from '../../../test/render-app';
import { server } from '../../../test/server';
import type { TCodeEditorProps } from '../components/code-editor-types';
import { EMAIL_TEMPLATE_STRINGS } from '../strings';

const S = EMAIL_TEMPLATE_STRINGS.ai;

// CodeMirror needs layout jsdom has not got: the editor is a textarea with the same props.
vi.mock('../components/code-editor', () => ({
  CodeEditor: ({ value, onChange, label }: TCodeEditorProps) => (
    <textarea aria-label={label} value={value} onChange={(e) => onChange(e.target.value)} />
  ),
}));

const CONFIGURED: TLlmSettings = {
  base_url: 'http://127.0.0.1:4020/v1',
  model: 'titan-sim-1',
  has_api_key: true,
  source: 'business',
  effective_model: 'titan-sim-1',
  embedding_model: null,
  configured: true,
  updated_at: '2026-11-20T10:00:00Z',
  usage_30d: { calls: 0, prompt_tokens: 0, completion_tokens: 0 },
};
const NOT_CONFIGURED: TLlmSettings = {
  ...CONFIGURED,
  base_url: null,
  model: null,
  has_api_key: false,
  source: 'none',
  effective_model: null,
  configured: false,
  updated_at: null,
};

const GENERATED: TGeneratedEmailTemplate = {
  name: 'Spring Sale email',
  subject: 'Spring Sale – just for you',
  preheader: '20% off this weekend',
  format: 'mjml',
  content:
    '<mjml><mj-body><mj-section><mj-column><mj-text>Hi {{ customer.name }}</mj-text></mj-column></mj-section></mj-body></mjml>',
};

type Body = Record<string, unknown>;

const sse = (event: TEmailTemplateStreamEvent) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;

/** A streamed answer whose events are pushed by the test, so it can look at the screen in between. */
function controlledStream() {
  const encoder = new TextEncoder();
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
  return {
    response: () =>
      new HttpResponse(body, { headers: { 'content-type': 'text/event-stream; charset=utf-8' } }),
    push: (...events: TEmailTemplateStreamEvent[]) => {
      for (const e of events) controller.enqueue(encoder.encode(sse(e)));
    },
    end: () => controller.close(),
  };
}

function setUp(role: 'owner' | 'agent' = 'owner', settings = CONFIGURED) {
  signIn();
  const state = { generations: [] as Body[], posts: [] as Body[], previews: [] as Body[] };
  server.use(
    http.get('/api/users/profile/', () => ok(profile({ businesses: [{ ...ACME, role }] }))),
    http.get('/api/config/llm/', () => ok(settings)),
    http.post('/api/template/preview/', async ({ request }) => {
      const body = (await request.json()) as Body;
      state.previews.push(body);
      const draft = body.draft as { subject: string };
      return ok({ subject: draft.subject, html: '<p>Hi there</p>', text: 'Hi there', errors: {} });
    }),
    http.post('/api/template/', async ({ request }) => {
      const body = (await request.json()) as Body;
      state.posts.push(body);
      return ok(
        {
          ...(body as TGeneratedEmailTemplate),
          id: 42,
          text_content: null,
          variables: ['customer.name'],
          version: 1,
          created_at: '2026-11-24T10:00:00Z',
          updated_at: '2026-11-24T10:00:00Z',
          thumbnail_url: null,
        } satisfies TEmailTemplate,
        201,
      );
    }),
  );
  return state;
}

describe('AI email template', () => {
  it(
    'streams the text as it arrives, then previews, edits and saves the template',
    { timeout: 30_000 },
    async () => {
      const state = setUp();
      const stream = controlledStream();
      server.use(
        http.post('/api/template/gpt-prompt-email/', async ({ request }) => {
          state.generations.push((await request.json()) as Body);
          expect(request.headers.get('accept')).toBe('text/event-stream');
          return stream.response();
        }),
      );
      const user = userEvent.setup();
      renderApp('/engage/ai-template');

      await user.type(await screen.findByLabelText(S.prompt), 'Spring sale, 20% off');
      await user.selectOptions(screen.getByLabelText(S.tone), 'Playful');
      await user.type(screen.getByLabelText(S.audience), 'loyal customers');
      await user.click(screen.getByRole('button', { name: S.generate }));

      stream.push(
        { type: 'status', stage: 'generating', attempt: 1 },
        { type: 'delta', text: '{"name":"Spring' },
      );
      // The element changes from the raw text to the fields once the answer reads as an object.
      const text = () => screen.getByLabelText(S.streamLabel);
      // The unfinished JSON reads as the fields forming, not as raw text with escapes.
      await waitFor(() => expect(text()).toHaveTextContent(`${EMAIL_TEMPLATE_STRINGS.name}Spring`));
      expect(text()).not.toHaveTextContent('{"name"');
      expect(screen.getByText(S.stages.generating)).toBeInTheDocument();
      expect(state.generations).toEqual([
        { prompt: 'Spring sale, 20% off', tone: 'Playful', audience: 'loyal customers' },
      ]);

      stream.push(
        {
          type: 'delta',
          text: ' Sale email","subject":"Spring Sale","content":"<mjml>\\n  <mj-body>\\n    <mj-text>Hi \\"there\\"',
        },
        { type: 'status', stage: 'compiling', attempt: 1 },
      );
      await waitFor(() =>
        expect(text()).toHaveTextContent(`${EMAIL_TEMPLATE_STRINGS.name}Spring Sale email`),
      );
      expect(text()).toHaveTextContent(`${EMAIL_TEMPLATE_STRINGS.subject}Spring Sale`);
      expect(screen.getByLabelText(S.formingContent).textContent).toBe(
        '<mjml>\n  <mj-body>\n    <mj-text>Hi "there"',
      );
      expect(await screen.findByText(S.stages.compiling)).toBeInTheDocument();

      stream.push({ type: 'result', template: GENERATED });
      stream.end();
      const name = await screen.findByLabelText(EMAIL_TEMPLATE_STRINGS.name);
      expect(name).toHaveValue('Spring Sale email');
      expect(screen.getByLabelText(EMAIL_TEMPLATE_STRINGS.subject)).toHaveValue('Spring Sale – just for you');
      expect(screen.queryByLabelText(S.streamLabel)).not.toBeInTheDocument();

      // The live preview renders the draft through the server.
      expect(await screen.findByTestId('preview-subject')).toHaveTextContent('Spring Sale – just for you');
      expect(screen.getByTitle(EMAIL_TEMPLATE_STRINGS.previewFrame)).toHaveAttribute(
        'srcdoc',
        '<p>Hi there</p>',
      );
      expect(state.previews.at(-1)).toMatchObject({ draft: { content: GENERATED.content, format: 'mjml' } });

      await user.clear(name);
      await user.type(name, 'Spring sale 2027');
      await user.click(screen.getByRole('button', { name: S.saveAsTemplate }));
      const saved = await screen.findByText(S.savedAs('Spring sale 2027'), { selector: 'p' });
      expect(state.posts).toEqual([{ ...GENERATED, name: 'Spring sale 2027' }]);
      expect(
        within(saved.closest('[data-slot="alert"]') as HTMLElement).getByRole('link', {
          name: S.openInEditor,
        }),
      ).toHaveAttribute('href', '/engage/templates/email/42');
    },
  );

  it('shows why a generation failed, with the compile errors', async () => {
    setUp();
    server.use(
      http.post('/api/template/gpt-prompt-email/', () => {
        const stream = controlledStream();
        stream.push(
          { type: 'status', stage: 'generating', attempt: 1 },
          { type: 'status', stage: 'repairing', attempt: 2 },
          {
            type: 'error',
            status: 422,
            message: LLM_ERRORS.templateDidNotCompile,
            errors: { content: ['Line 3: mj-text cannot be used inside mj-body'] },
          },
        );
        stream.end();
        return stream.response();
      }),
    );
    const user = userEvent.setup();
    renderApp('/engage/ai-template');
    await user.type(await screen.findByLabelText(S.prompt), 'A welcome email');
    await user.click(screen.getByRole('button', { name: S.generate }));
    expect(await screen.findByText(LLM_ERRORS.templateDidNotCompile)).toBeInTheDocument();
    expect(screen.getByText('content: Line 3: mj-text cannot be used inside mj-body')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: S.saveAsTemplate })).not.toBeInTheDocument();
  });

  it('shows a refusal before the stream (429) as the server words it', async () => {
    setUp();
    server.use(
      http.post('/api/template/gpt-prompt-email/', () =>
        fail(429, 'Too many attempts. Try again in 42 seconds.', null, { 'retry-after': '42' }),
      ),
    );
    const user = userEvent.setup();
    renderApp('/engage/ai-template');
    await user.type(await screen.findByLabelText(S.prompt), 'A welcome email');
    await user.click(screen.getByRole('button', { name: S.generate }));
    expect(await screen.findByText('Too many attempts. Try again in 42 seconds.')).toBeInTheDocument();
  });

  it('says plainly when no AI model is set up, and links owners to the settings', async () => {
    setUp('owner', NOT_CONFIGURED);
    renderApp('/engage/ai-template');
    expect(await screen.findByText(S.notConfiguredTitle)).toBeInTheDocument();
    expect(screen.getByText(S.notConfiguredText)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: S.configure })).toHaveAttribute(
      'href',
      '/engage/settings/ai-model',
    );
    expect(screen.queryByLabelText(S.prompt)).not.toBeInTheDocument();
  });

  it('tells agents to ask an owner or admin', async () => {
    setUp('agent', NOT_CONFIGURED);
    renderApp('/engage/ai-template');
    expect(await screen.findByText(S.notConfiguredAskAdmin)).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: S.configure })).not.toBeInTheDocument();
  });

  it('switches to the not-configured message when the model is gone by the time of generating (409)', async () => {
    let settings = CONFIGURED;
    setUp();
    server.use(
      http.get('/api/config/llm/', () => ok(settings)),
      http.post('/api/template/gpt-prompt-email/', () => {
        settings = NOT_CONFIGURED;
        return fail(409, LLM_ERRORS.notConfigured);
      }),
    );
    const user = userEvent.setup();
    renderApp('/engage/ai-template');
    await user.type(await screen.findByLabelText(S.prompt), 'A welcome email');
    await user.click(screen.getByRole('button', { name: S.generate }));
    expect(await screen.findByText(S.notConfiguredTitle)).toBeInTheDocument();
  });
});
