import type {
  TEmailTemplate,
  TEmailTemplatePreview,
  TEmailTemplateSummary,
  TEmailTemplateVersion,
} from '@titan/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { useImperativeHandle } from 'react';
import { describe, expect, it, vi } from 'vitest';

import { ACME, fail, ok, profile, signIn } from '../../../test/api';
import { renderApp } from '../../../test/render-app';
import { server } from '../../../test/server';
import type { TCodeEditorProps } from '../components/code-editor-types';
import type { TVisualEditorProps } from '../components/visual-editor-types';
import { EMAIL_TEMPLATE_STRINGS as S } from '../strings';
import { VISUAL_PROBLEMS } from '../utils/template-source';

// CodeMirror needs layout jsdom has not got: the editor is a textarea with the same props and handle.
vi.mock('../components/code-editor', () => ({
  CodeEditor: ({ value, onChange, readOnly, errors, label, handleRef }: TCodeEditorProps) => {
    useImperativeHandle(handleRef, () => ({
      insert: (text: string) => onChange(value + text),
      goToLine: () => undefined,
    }));
    return (
      <textarea
        aria-label={label}
        data-error-lines={errors.map((e) => e.line).join(',')}
        value={value}
        readOnly={readOnly}
        onChange={(e) => onChange(e.target.value)}
      />
    );
  },
}));

// GrapesJS's canvas re-renders without end under jsdom (its iframe and style sheets): the visual
// editor is a stand-in with the same props, where "Add text block" does what dropping the Text block
// does (the MJML gains an <mj-text>) and "Upload image" what its asset manager's upload does.
vi.mock('../components/visual-editor', () => ({
  VisualEditor: ({ value, onChange, label, uploadImage, onUploadError }: TVisualEditorProps) => (
    <div role="group" aria-label={label}>
      <pre data-testid="visual-source">{value}</pre>
      <button
        type="button"
        onClick={() => onChange(value.replace('</mj-column>', '<mj-text>Spring sale</mj-text></mj-column>'))}
      >
        Add text block
      </button>
      <input
        type="file"
        aria-label="Upload image"
        onChange={(e) => {
          const file = e.target.files?.[0];
          if (file)
            uploadImage(file).then(
              (url) => onChange(value.replace('</mj-column>', `<mj-image src="${url}" /></mj-column>`)),
              onUploadError,
            );
        }}
      />
    </div>
  ),
}));

const MJML = '<mjml>\n  <mj-body>\n    <mj-text>Hello {{ customer.name }}</mj-text>\n  </mj-body>\n</mjml>';

const WELCOME: TEmailTemplate = {
  id: 7,
  name: 'Welcome',
  subject: 'Hi {{ customer.name }}',
  preheader: '',
  format: 'mjml',
  content: MJML,
  text_content: null,
  variables: ['customer.name'],
  version: 3,
  created_at: '2026-11-01T10:00:00Z',
  updated_at: '2026-11-20T10:00:00Z',
  thumbnail_url: null,
};

const summary = (t: TEmailTemplate): TEmailTemplateSummary => {
  const { content: _c, text_content: _t, ...rest } = t;
  return rest;
};

const versionOf = (t: TEmailTemplate, version: number): TEmailTemplateVersion => ({
  version,
  name: t.name,
  subject: t.subject,
  preheader: t.preheader,
  format: t.format,
  content: t.content,
  text_content: t.text_content,
  variables: t.variables,
  created_by: 1,
  created_at: '2026-11-20T10:00:00Z',
});

type Body = Record<string, unknown>;

function withTemplates(role: 'owner' | 'agent' = 'owner') {
  signIn();
  const state = {
    templates: [WELCOME],
    previews: [] as { url: string; body: Body }[],
    puts: [] as Body[],
    posts: [] as Body[],
    deletes: [] as string[],
    uploads: [] as { templateId: string | null; fileName: string }[],
    preview: (body: Body): TEmailTemplatePreview => {
      const draft = body.draft as { subject: string };
      const name = ((body.variables as Body).customer as Body | undefined)?.name ?? '';
      return {
        subject: draft.subject.replace('{{ customer.name }}', String(name)),
        html: `<p>Hello ${String(name)}</p>`,
        text: `Hello ${String(name)}`,
        errors: {},
      };
    },
    putAnswer: null as null | ((body: Body) => Response),
  };
  server.use(
    http.get('/api/users/profile/', () => ok(profile({ businesses: [{ ...ACME, role }] }))),
    http.get('/api/template/', () => ok(state.templates.map(summary))),
    http.get('/api/template/:id/', ({ params }) => {
      const t = state.templates.find((x) => x.id === Number(params.id));
      return t ? ok(t) : fail(404, 'Template not found.');
    }),
    http.get('/api/template/:id/versions/', ({ params }) => {
      const t = state.templates.find((x) => x.id === Number(params.id))!;
      return ok(Array.from({ length: t.version }, (_, i) => versionOf(t, t.version - i)));
    }),
    http.post('/api/template/', async ({ request }) => {
      const body = (await request.json()) as Body;
      state.posts.push(body);
      const created = { ...WELCOME, ...body, id: 8, version: 1, variables: [] } as TEmailTemplate;
      state.templates = [...state.templates, created];
      return ok(created, 201);
    }),
    http.put('/api/template/:id/', async ({ request, params }) => {
      const body = (await request.json()) as Body;
      state.puts.push(body);
      if (state.putAnswer) return state.putAnswer(body);
      const current = state.templates.find((x) => x.id === Number(params.id))!;
      const next = { ...current, ...body, version: current.version + 1 } as TEmailTemplate;
      delete (next as Body).restore_version;
      delete (next as Body).base_version;
      state.templates = state.templates.map((x) => (x.id === next.id ? next : x));
      return ok(next);
    }),
    http.delete('/api/template/:id/', ({ params }) => {
      state.deletes.push(String(params.id));
      state.templates = state.templates.filter((x) => x.id !== Number(params.id));
      return new Response(null, { status: 204 });
    }),
    http.post('/api/template/preview/', async ({ request }) => {
      const body = (await request.json()) as Body;
      state.previews.push({ url: '/api/template/preview/', body });
      return ok(state.preview(body));
    }),
    http.post('/api/template/:id/preview/', async ({ request, params }) => {
      const body = (await request.json()) as Body;
      state.previews.push({ url: `/api/template/${String(params.id)}/preview/`, body });
      return ok(state.preview(body));
    }),
    http.post('/api/template/template-images/', async ({ request }) => {
      const form = await request.formData();
      const file = form.get('file') as File;
      state.uploads.push({ templateId: form.get('template_id') as string | null, fileName: file.name });
      return ok(
        {
          url: 'http://titan.test/public/template_images/7/u/logo.png',
          key: 'public/template_images/7/u/logo.png',
          size: file.size,
          mime_type: 'image/png',
          file_name: file.name,
        },
        201,
      );
    }),
  );
  return state;
}

const previewFrame = () => screen.findByTitle(S.previewFrame);

describe('Email templates', () => {
  it('lists the templates in an Email tab beside WhatsApp', { timeout: 20_000 }, async () => {
    withTemplates();
    renderApp('/engage/templates/email');
    const tabs = await screen.findByRole('navigation', { name: 'Templates' });
    expect(within(tabs).getByRole('link', { name: 'WhatsApp' })).not.toHaveAttribute('aria-current');
    expect(within(tabs).getByRole('link', { name: 'Email' })).toHaveAttribute('aria-current', 'page');
    const table = await screen.findByRole('table', { name: S.tableLabel });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Name', 'Subject', 'Updated', 'Version', 'Actions']);
    const [row] = within(table).getAllByRole('row').slice(1);
    expect(within(row!).getByRole('link', { name: S.edit('Welcome') })).toHaveAttribute(
      'href',
      '/engage/templates/email/7',
    );
    expect(within(row!).getByText('Hi {{ customer.name }}')).toBeInTheDocument();
    expect(within(row!).getByText('v3')).toBeInTheDocument();
  });

  it('deletes a template after confirming', { timeout: 20_000 }, async () => {
    const state = withTemplates();
    renderApp('/engage/templates/email');
    const table = await screen.findByRole('table', { name: S.tableLabel });
    await userEvent.click(within(table).getByRole('button', { name: `${S.delete} Welcome` }));
    const dialog = await screen.findByRole('alertdialog');
    expect(within(dialog).getByText(S.deleteTitle('Welcome'))).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: S.delete }));
    expect(await screen.findByText(S.deleted('Welcome'))).toBeInTheDocument();
    expect(state.deletes).toEqual(['7']);
    expect(await screen.findByText(S.emptyTitle)).toBeInTheDocument();
  });

  it('creates a template with a live preview of the draft', { timeout: 20_000 }, async () => {
    const state = withTemplates();
    const { router } = renderApp('/engage/templates/email');
    await userEvent.click(await screen.findByRole('link', { name: S.create }));
    expect(await screen.findByRole('heading', { level: 1, name: S.newTitle })).toBeInTheDocument();

    await userEvent.type(screen.getByLabelText(S.name), 'Spring');
    await userEvent.type(screen.getByLabelText(S.subject), 'Hello {{{{ customer.name }}');
    // The starter's variables get sample values, used by the preview.
    const sample = await screen.findByLabelText('customer.name');
    await userEvent.clear(sample);
    await userEvent.type(sample, 'Grace');
    await waitFor(() => expect(screen.getByTestId('preview-subject')).toHaveTextContent('Hello Grace'));
    const frame = await previewFrame();
    expect(frame).toHaveAttribute('sandbox', '');
    expect(frame.getAttribute('srcdoc')).toBe('<p>Hello Grace</p>');
    expect(frame).toHaveStyle({ width: '640px' });
    await userEvent.click(screen.getByRole('radio', { name: S.phone }));
    expect(await previewFrame()).toHaveStyle({ width: '375px' });
    await userEvent.click(screen.getByRole('radio', { name: S.textTab }));
    expect(screen.getByLabelText(S.textTab)).toHaveTextContent('Hello Grace');
    await userEvent.click(screen.getByRole('radio', { name: S.htmlTab }));
    const last = state.previews.at(-1)!;
    expect(last.url).toBe('/api/template/preview/');
    expect(last.body).toMatchObject({
      draft: { format: 'mjml' },
      variables: { customer: { name: 'Grace' } },
    });

    await userEvent.click(screen.getByRole('button', { name: S.save }));
    expect(await screen.findByText(S.created)).toBeInTheDocument();
    expect(state.posts[0]).toMatchObject({
      name: 'Spring',
      subject: 'Hello {{ customer.name }}',
      format: 'mjml',
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/engage/templates/email/8'));
  });

  it('shows the server errors at their line and keeps the source', { timeout: 20_000 }, async () => {
    const state = withTemplates();
    state.putAnswer = () => fail(400, 'Invalid input.', { content: ["Line 3: unknown tag 'iff'"] });
    renderApp('/engage/templates/email/7');
    const editor = await screen.findByLabelText(S.editorLabel);
    await userEvent.type(editor, '{{% iff x %}');
    await userEvent.click(screen.getByRole('button', { name: S.save }));
    const errors = await screen.findByRole('list', { name: S.errorsAt });
    expect(within(errors).getByText("Line 3: unknown tag 'iff'")).toBeInTheDocument();
    expect(within(errors).getByRole('button', { name: S.goToLine(3) })).toBeInTheDocument();
    expect(screen.getByLabelText(S.editorLabel)).toHaveAttribute('data-error-lines', '3');
    expect(screen.getByText(S.fixErrors)).toBeInTheDocument();
    expect(state.puts[0]).toMatchObject({ base_version: 3, content: `${MJML}{% iff x %}` });
  });

  it('checks the fields with the shared contract before sending', { timeout: 20_000 }, async () => {
    const state = withTemplates();
    renderApp('/engage/templates/email/7');
    const name = await screen.findByLabelText(S.name);
    await userEvent.clear(name);
    await userEvent.type(name, '   ');
    await userEvent.click(screen.getByRole('button', { name: S.save }));
    await waitFor(() => expect(name).toHaveAttribute('aria-invalid', 'true'));
    expect(state.puts).toHaveLength(0);
    await userEvent.type(name, 'Welcome again');
    await waitFor(() => expect(name).not.toHaveAttribute('aria-invalid'));
    await userEvent.click(screen.getByRole('button', { name: S.save }));
    await waitFor(() => expect(state.puts).toHaveLength(1));
    expect(state.puts[0]).toMatchObject({ name: 'Welcome again', base_version: 3 });
  });

  it('shows preview errors, and saves a new version', { timeout: 20_000 }, async () => {
    const state = withTemplates();
    state.preview = () => ({
      subject: '',
      html: '',
      text: '',
      errors: { subject: ["Line 1: undefined variable 'coupon'"] },
    });
    renderApp('/engage/templates/email/7');
    expect(await screen.findByText("Line 1: undefined variable 'coupon'")).toBeInTheDocument();
    expect(state.previews[0]!.url).toBe('/api/template/7/preview/');

    await userEvent.clear(screen.getByLabelText(S.subject));
    await userEvent.type(screen.getByLabelText(S.subject), 'New subject');
    expect(screen.getByText(S.unsavedChanges)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: S.save }));
    expect(await screen.findByText(S.saved(4))).toBeInTheDocument();
    expect(state.puts[0]).toMatchObject({ subject: 'New subject', base_version: 3 });
  });

  it(
    'sends a test of the saved template with the sample values, showing the server’s field errors',
    { timeout: 20_000 },
    async () => {
      withTemplates();
      const tests: Body[] = [];
      server.use(
        http.post('/api/template/:id/test/', async ({ request, params }) => {
          const body = (await request.json()) as Body;
          tests.push({ ...body, id: params.id });
          if (String(body.from).endsWith('@unverified.test'))
            return fail(409, 'unverified.test is not a verified sending domain of this business.', {
              from: ['unverified.test is not a verified sending domain of this business.'],
            });
          return ok(
            {
              id: 'b3b1d3a2-6a77-4a43-9d38-6f0e7cd0b001',
              tracking_id: 'b3b1d3a2-6a77-4a43-9d38-6f0e7cd0b001',
              status: 'queued',
              recipient: body.to,
              customer_id: null,
              subject: 'Welcome',
              template_id: 7,
              provider_message_id: null,
              error_code: null,
              error_message: null,
              created_at: '2026-11-24T04:00:00.000Z',
            },
            202,
          );
        }),
      );
      renderApp('/engage/templates/email/7');
      const panel = await screen.findByRole('region', { name: S.testTitle });
      await userEvent.clear(within(panel).getByLabelText(S.testFrom));
      await userEvent.type(within(panel).getByLabelText(S.testFrom), 'news@unverified.test');
      await userEvent.clear(within(panel).getByLabelText(S.testTo));
      await userEvent.type(within(panel).getByLabelText(S.testTo), 'me@example.com');
      await userEvent.click(within(panel).getByRole('button', { name: S.testSend }));
      expect(
        await within(panel).findByText('unverified.test is not a verified sending domain of this business.'),
      ).toBeInTheDocument();
      await userEvent.clear(within(panel).getByLabelText(S.testFrom));
      await userEvent.type(within(panel).getByLabelText(S.testFrom), 'news@acme.test');
      await userEvent.click(within(panel).getByRole('button', { name: S.testSend }));
      expect(await screen.findByText(S.testSent('me@example.com'))).toBeInTheDocument();
      expect(tests.at(-1)).toMatchObject({ id: '7', to: 'me@example.com', from: 'news@acme.test' });
      expect(tests.at(-1)!.variables).toEqual(expect.objectContaining({ customer: expect.any(Object) }));
    },
  );

  it('fills the test’s From on a verified domain and To with the person’s own address', async () => {
    withTemplates();
    server.use(
      http.get('/api/email/domains/', () =>
        ok([
          {
            id: 1,
            domain: 'pending.test',
            status: 'pending',
            last_checked_at: null,
            default_from: null,
            created_at: '2026-11-20T10:00:00Z',
            records: [],
          },
          {
            id: 2,
            domain: 'acme.test',
            status: 'verified',
            last_checked_at: null,
            default_from: null,
            created_at: '2026-11-20T10:00:00Z',
            records: [],
          },
        ]),
      ),
    );
    renderApp('/engage/templates/email/7');
    const panel = await screen.findByRole('region', { name: S.testTitle });
    await waitFor(() => expect(within(panel).getByLabelText(S.testFrom)).toHaveValue('hello@acme.test'));
    expect(within(panel).getByLabelText(S.testTo)).toHaveValue('ada@example.com');
    expect(within(panel).queryByText(S.testNoVerifiedDomain)).not.toBeInTheDocument();
  });

  it('fills the test’s From with the default sender set on a verified domain', async () => {
    const tests: Record<string, unknown>[] = [];
    withTemplates();
    server.use(
      http.get('/api/email/domains/', () =>
        ok([
          {
            id: 2,
            domain: 'acme.test',
            status: 'verified',
            last_checked_at: null,
            default_from: 'Acme News <news@acme.test>',
            created_at: '2026-11-20T10:00:00Z',
            records: [],
          },
        ]),
      ),
      http.post('/api/template/:id/test/', async ({ request }) => {
        tests.push((await request.json()) as Record<string, unknown>);
        return ok(
          {
            id: 'b3b1d3a2-6a77-4a43-9d38-6f0e7cd0b002',
            tracking_id: 'b3b1d3a2-6a77-4a43-9d38-6f0e7cd0b002',
            status: 'queued',
            recipient: 'ada@example.com',
            customer_id: null,
            subject: 'Welcome',
            template_id: 7,
            provider_message_id: null,
            error_code: null,
            error_message: null,
            created_at: '2026-11-24T04:00:00.000Z',
          },
          202,
        );
      }),
    );
    renderApp('/engage/templates/email/7');
    const panel = await screen.findByRole('region', { name: S.testTitle });
    await waitFor(() =>
      expect(within(panel).getByLabelText(S.testFrom)).toHaveValue('Acme News <news@acme.test>'),
    );
    await userEvent.click(within(panel).getByRole('button', { name: S.testSend }));
    expect(await screen.findByText(S.testSent('ada@example.com'))).toBeInTheDocument();
    expect(tests.at(-1)).toMatchObject({ from: 'Acme News <news@acme.test>', to: 'ada@example.com' });
  });

  it('says where to verify a domain when the business has none', async () => {
    withTemplates();
    renderApp('/engage/templates/email/7');
    const panel = await screen.findByRole('region', { name: S.testTitle });
    expect(await within(panel).findByText(S.testNoVerifiedDomain)).toBeInTheDocument();
    expect(within(panel).getByRole('link', { name: S.testVerifyDomainLink })).toHaveAttribute(
      'href',
      '/engage/settings/email-domains',
    );
    expect(within(panel).getByLabelText(S.testFrom)).toHaveValue('');
  });

  it('restores an older version', { timeout: 20_000 }, async () => {
    const state = withTemplates();
    renderApp('/engage/templates/email/7');
    const versions = await screen.findByRole('list', { name: S.versionsTitle });
    await within(versions).findByText(S.versionLabel(1));
    expect(within(versions).getByText(S.current)).toBeInTheDocument();
    await userEvent.click(
      within(versions).getByRole('button', { name: `${S.restore} ${S.versionLabel(1)}` }),
    );
    const dialog = await screen.findByRole('alertdialog');
    await userEvent.click(within(dialog).getByRole('button', { name: S.restore }));
    expect(await screen.findByText(S.restored(1, 4))).toBeInTheDocument();
    expect(state.puts).toEqual([{ restore_version: 1 }]);
  });

  it('uploads an image and inserts it into the source', { timeout: 20_000 }, async () => {
    const state = withTemplates();
    renderApp('/engage/templates/email/7');
    await screen.findByLabelText(S.editorLabel);
    const file = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'logo.png', { type: 'image/png' });
    await userEvent.upload(screen.getByLabelText(S.insertImage, { selector: 'input' }), file);
    expect(await screen.findByText(S.imageInserted)).toBeInTheDocument();
    // jsdom's FormData drops the file name on the way through msw: the template id is what matters.
    expect(state.uploads.map((u) => u.templateId)).toEqual(['7']);
    expect((screen.getByLabelText(S.editorLabel) as HTMLTextAreaElement).value).toContain(
      '<mj-image src="http://titan.test/public/template_images/7/u/logo.png" alt="" />',
    );
  });

  it('is read-only for agents', { timeout: 20_000 }, async () => {
    withTemplates('agent');
    renderApp('/engage/templates/email');
    await screen.findByRole('table', { name: S.tableLabel });
    expect(screen.queryByRole('link', { name: S.create })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: `${S.delete} Welcome` })).not.toBeInTheDocument();
  });

  it('says when a template does not exist', { timeout: 20_000 }, async () => {
    withTemplates();
    renderApp('/engage/templates/email/99');
    expect(await screen.findByText(S.notFoundTitle)).toBeInTheDocument();
  });
});

const DESIGNED_MJML = `<mjml>
  <mj-body background-color="#f4f4f5">
    <mj-section background-color="#ffffff">
      <mj-column>
        <mj-text>Hello {{ customer.name }}</mj-text>
        <mj-button href="https://acme.test/shop">Visit us</mj-button>
      </mj-column>
    </mj-section>
  </mj-body>
</mjml>`;

describe('Email templates: the visual editor', () => {
  it(
    'opens an MJML template in the Visual view unchanged, saves block edits as MJML, and shows them in the code view',
    { timeout: 30_000 },
    async () => {
      const state = withTemplates();
      state.templates = [{ ...WELCOME, content: DESIGNED_MJML }];
      renderApp('/engage/templates/email/7');
      await screen.findByLabelText(S.editorLabel);
      await userEvent.click(screen.getByRole('radio', { name: S.viewVisual }));
      const visual = await screen.findByRole('group', { name: S.visualLabel });
      expect(within(visual).getByTestId('visual-source')).toHaveTextContent('Hello {{ customer.name }}');
      expect(screen.getByText(S.visualHint)).toBeInTheDocument();
      // Opening it changes nothing: nothing to save.
      expect(screen.getByRole('button', { name: S.save })).toBeDisabled();
      expect(screen.queryByText(S.unsavedChanges)).not.toBeInTheDocument();
      // The image button of the code view gives way to the editor's own.
      expect(screen.queryByLabelText(S.insertImage, { selector: 'input' })).not.toBeInTheDocument();

      await userEvent.click(within(visual).getByRole('button', { name: 'Add text block' }));
      expect(screen.getByText(S.unsavedChanges)).toBeInTheDocument();
      // The preview renders what the blocks make.
      await waitFor(() =>
        expect(state.previews.at(-1)?.body.draft).toMatchObject({
          content: expect.stringContaining('<mj-text>Spring sale</mj-text>'),
        }),
      );
      await userEvent.click(screen.getByRole('button', { name: S.save }));
      await waitFor(() => expect(state.puts).toHaveLength(1));
      expect(state.puts[0]).toMatchObject({
        base_version: 3,
        format: 'mjml',
        content: DESIGNED_MJML.replace('</mj-column>', '<mj-text>Spring sale</mj-text></mj-column>'),
      });
      expect(await screen.findByText(S.saved(4))).toBeInTheDocument();

      await userEvent.click(screen.getByRole('radio', { name: S.viewCode }));
      expect((await screen.findByLabelText(S.editorLabel)) as HTMLTextAreaElement).toHaveValue(
        DESIGNED_MJML.replace('</mj-column>', '<mj-text>Spring sale</mj-text></mj-column>'),
      );
    },
  );

  it(
    'uploads an image from the visual editor through the template images API',
    { timeout: 30_000 },
    async () => {
      const state = withTemplates();
      state.templates = [{ ...WELCOME, content: DESIGNED_MJML }];
      renderApp('/engage/templates/email/7');
      await userEvent.click(await screen.findByRole('radio', { name: S.viewVisual }));
      const visual = await screen.findByRole('group', { name: S.visualLabel });
      const file = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'logo.png', { type: 'image/png' });
      await userEvent.upload(within(visual).getByLabelText('Upload image'), file);
      await waitFor(() =>
        expect(within(visual).getByTestId('visual-source')).toHaveTextContent(
          '<mj-image src="http://titan.test/public/template_images/7/u/logo.png" />',
        ),
      );
      expect(state.uploads.map((u) => u.templateId)).toEqual(['7']);
    },
  );

  it.each([
    ['Liquid tags', MJML.replace('Hello', '{% if customer.name %}Hello{% endif %}'), 'liquidTags'],
    ['no <mjml> document', '<mj-text>Hello</mj-text>', 'notMjml'],
  ] as const)(
    'keeps a template with %s in the code view and says why',
    { timeout: 30_000 },
    async (_what, content, problem) => {
      const state = withTemplates();
      state.templates = [{ ...WELCOME, content }];
      renderApp('/engage/templates/email/7');
      await screen.findByLabelText(S.editorLabel);
      expect(screen.getByRole('radio', { name: S.viewVisual })).toBeDisabled();
      expect(screen.getByText(VISUAL_PROBLEMS[problem])).toBeInTheDocument();
    },
  );

  it('is not offered for HTML templates or to those who cannot edit', { timeout: 30_000 }, async () => {
    const state = withTemplates('agent');
    state.templates = [{ ...WELCOME, content: DESIGNED_MJML }];
    renderApp('/engage/templates/email/7');
    await screen.findByLabelText(S.editorLabel);
    expect(screen.queryByRole('radio', { name: S.viewVisual })).not.toBeInTheDocument();
  });

  it('goes back to the code view when the format changes to HTML', { timeout: 30_000 }, async () => {
    const state = withTemplates();
    state.templates = [{ ...WELCOME, content: DESIGNED_MJML }];
    renderApp('/engage/templates/email/7');
    await userEvent.click(await screen.findByRole('radio', { name: S.viewVisual }));
    await screen.findByRole('group', { name: S.visualLabel });
    await userEvent.selectOptions(screen.getByLabelText(S.format), 'html');
    expect(await screen.findByLabelText(S.editorLabel)).toBeInTheDocument();
    expect(screen.queryByRole('group', { name: S.visualLabel })).not.toBeInTheDocument();
    expect(screen.queryByRole('radio', { name: S.viewVisual })).not.toBeInTheDocument();
  });
});
