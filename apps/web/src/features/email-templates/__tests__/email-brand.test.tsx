// The brand for mail and saved blocks: the Brand screen saves what was chosen (server field errors
// shown at their field), uploads the logo as an image for email, deletes saved blocks; a template
// can start from the brand; the visual editor gets the brand's and the saved blocks, and saves the
// selected section as a block.
import {
  EMAIL_BRAND_DEFAULTS,
  type TEmailBlock,
  type TEmailBrand,
  type TEmailTemplate,
  type TEmailTemplateSummary,
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
import { EMAIL_TEMPLATE_STRINGS } from '../strings';

const S = EMAIL_TEMPLATE_STRINGS.brand;
const SECTION = '<mj-section><mj-column><mj-text>Opening hours</mj-text></mj-column></mj-section>';

vi.mock('../components/code-editor', () => ({
  CodeEditor: ({ value, onChange, label }: TCodeEditorProps) => (
    <textarea aria-label={label} value={value} onChange={(e) => onChange(e.target.value)} />
  ),
}));

// GrapesJS does not run under jsdom: the stand-in lists the blocks it was given (as the Blocks
// panel does), inserts one on click as the real editor does, and answers a selected section.
vi.mock('../components/visual-editor', () => ({
  VisualEditor: ({ value, onChange, label, blocks, handleRef }: TVisualEditorProps) => {
    useImperativeHandle(handleRef, () => ({ selectedSection: () => SECTION }));
    return (
      <div role="group" aria-label={label}>
        <ul aria-label="Blocks">
          {(blocks ?? []).map((b) => (
            <li key={b.id}>
              <button
                type="button"
                onClick={() => onChange(value.replace('</mj-body>', `${b.content}</mj-body>`))}
              >
                {`${b.category}: ${b.label}`}
              </button>
            </li>
          ))}
        </ul>
      </div>
    );
  },
}));

const TEMPLATE: TEmailTemplate = {
  id: 7,
  name: 'Welcome',
  subject: 'Hi',
  preheader: '',
  format: 'mjml',
  content:
    '<mjml><mj-body><mj-section><mj-column><mj-text>Hi</mj-text></mj-column></mj-section></mj-body></mjml>',
  text_content: null,
  variables: [],
  version: 1,
  created_at: '2026-11-01T10:00:00Z',
  updated_at: '2026-11-20T10:00:00Z',
  thumbnail_url: null,
};

type Body = Record<string, unknown>;

function withBrand() {
  signIn();
  const state = {
    brand: { ...EMAIL_BRAND_DEFAULTS } as TEmailBrand,
    blocks: [
      { id: 3, name: 'Opening hours', content: SECTION, created_at: '2026-11-20T10:00:00Z' },
    ] as TEmailBlock[],
    brandPuts: [] as Body[],
    blockPosts: [] as Body[],
    blockDeletes: [] as string[],
    uploads: [] as (string | null)[],
    templatePosts: [] as Body[],
  };
  const summary = ({ content: _c, text_content: _t, ...rest }: TEmailTemplate): TEmailTemplateSummary => rest;
  server.use(
    http.get('/api/users/profile/', () => ok(profile({ businesses: [{ ...ACME, role: 'owner' }] }))),
    http.get('/api/template/', () => ok([summary(TEMPLATE)])),
    http.get('/api/template/brand/', () => ok(state.brand)),
    http.put('/api/template/brand/', async ({ request }) => {
      const body = (await request.json()) as Body;
      state.brandPuts.push(body);
      if (body.primary_color === 'orange')
        return fail(400, 'Invalid input', { primary_color: ['Enter a colour as #rrggbb.'] });
      state.brand = { ...(body as TEmailBrand), updated_at: '2026-11-29T10:00:00Z' };
      return ok(state.brand);
    }),
    http.get('/api/template/blocks/', () => ok(state.blocks)),
    http.post('/api/template/blocks/', async ({ request }) => {
      const body = (await request.json()) as Body;
      state.blockPosts.push(body);
      if (!String(body.name).trim()) return fail(400, 'Invalid input', { name: ['Enter a name.'] });
      const block = {
        id: 9,
        name: String(body.name),
        content: String(body.content),
        created_at: '2026-11-29T10:00:00Z',
      };
      state.blocks = [...state.blocks, block];
      return ok(block, 201);
    }),
    http.delete('/api/template/blocks/:id/', ({ params }) => {
      state.blockDeletes.push(String(params.id));
      state.blocks = state.blocks.filter((b) => b.id !== Number(params.id));
      return new Response(null, { status: 204 });
    }),
    http.get('/api/template/:id/', () => ok(TEMPLATE)),
    http.get('/api/template/:id/versions/', () => ok([])),
    http.post('/api/template/', async ({ request }) => {
      const body = (await request.json()) as Body;
      state.templatePosts.push(body);
      return ok({ ...TEMPLATE, ...body, id: 8 }, 201);
    }),
    http.post('/api/template/preview/', () => ok({ subject: '', html: '', text: '', errors: {} })),
    http.post('/api/template/:id/preview/', () => ok({ subject: '', html: '', text: '', errors: {} })),
    http.post('/api/template/template-images/', async ({ request }) => {
      const form = await request.formData();
      state.uploads.push(form.get('template_id') as string | null);
      return ok(
        {
          url: 'http://titan.test/public/template_images/default/u/logo.png',
          key: 'public/template_images/default/u/logo.png',
          size: 10,
          mime_type: 'image/png',
          file_name: 'logo.png',
        },
        201,
      );
    }),
  );
  return state;
}

describe('Email brand', () => {
  it(
    'opens from the templates list and saves the brand, a bad colour shown at its field',
    { timeout: 20_000 },
    async () => {
      const state = withBrand();
      const user = userEvent.setup();
      renderApp('/engage/templates/email');
      await user.click(await screen.findByRole('link', { name: S.open }));
      await screen.findByRole('heading', { name: S.title });
      const form = await screen.findByRole('form', { name: S.formLabel });

      // The logo is uploaded as an image for email (no template), then shown.
      await user.upload(
        within(form).getByLabelText(S.uploadLogo),
        new File([new Uint8Array([137, 80, 78, 71])], 'logo.png', { type: 'image/png' }),
      );
      expect(await within(form).findByRole('img', { name: S.logoAlt })).toHaveAttribute(
        'src',
        'http://titan.test/public/template_images/default/u/logo.png',
      );
      expect(state.uploads).toEqual([null]);

      const primary = within(form).getByLabelText(S.primaryColor);
      await user.clear(primary);
      await user.type(primary, 'orange');
      await user.selectOptions(within(form).getByLabelText(S.fontFamily), 'Georgia');
      await user.type(within(form).getByLabelText(S.footerAddress), '1 Market St, Springfield');
      await user.click(within(form).getByRole('button', { name: S.save }));
      expect(await within(form).findByText('Enter a colour as #rrggbb.')).toBeInTheDocument();
      expect(primary).toHaveAttribute('aria-invalid', 'true');

      await user.clear(primary);
      await user.type(primary, '#ff5500');
      await user.click(within(form).getByRole('button', { name: S.save }));
      expect(await screen.findByText(S.saved)).toBeInTheDocument();
      expect(state.brandPuts.at(-1)).toEqual({
        logo_url: 'http://titan.test/public/template_images/default/u/logo.png',
        primary_color: '#ff5500',
        text_color: EMAIL_BRAND_DEFAULTS.text_color,
        font_family: 'Georgia',
        footer_address: '1 Market St, Springfield',
      });
    },
  );

  it('lists saved blocks and deletes one after confirming', { timeout: 20_000 }, async () => {
    const state = withBrand();
    const user = userEvent.setup();
    renderApp('/engage/templates/email/brand');
    const list = await screen.findByRole('list', { name: S.blocksLabel });
    await user.click(within(list).getByRole('button', { name: S.deleteBlock('Opening hours') }));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText(S.noBlocks)).toBeInTheDocument();
    expect(state.blockDeletes).toEqual(['3']);
  });

  it(
    'starts a new template from the brand, its footer linking the unsubscribe URL',
    { timeout: 20_000 },
    async () => {
      const state = withBrand();
      state.brand = {
        ...state.brand,
        footer_address: '1 Market St',
        primary_color: '#ff5500',
        updated_at: 'x',
      };
      const user = userEvent.setup();
      renderApp('/engage/templates/email');
      await user.click(await screen.findByRole('link', { name: S.fromBrand }));
      const source = (await screen.findByRole('textbox', {
        name: EMAIL_TEMPLATE_STRINGS.editorLabel,
      })) as HTMLTextAreaElement;
      expect(source.value).toContain('background-color="#ff5500"');
      expect(source.value).toContain('1 Market St<br /><a href="{{ unsubscribe_url }}"');
    },
  );

  it(
    'offers the brand and saved blocks in the visual editor, and saves the selected section as a block',
    { timeout: 20_000 },
    async () => {
      const state = withBrand();
      const user = userEvent.setup();
      renderApp('/engage/templates/email/7');
      await user.click(await screen.findByRole('radio', { name: EMAIL_TEMPLATE_STRINGS.viewVisual }));
      const blocks = await screen.findByRole('list', { name: 'Blocks' });
      await within(blocks).findByRole('button', { name: 'Brand: Footer' });
      expect(
        within(blocks)
          .getAllByRole('button')
          .map((b) => b.textContent),
      ).toEqual([
        'Brand: Header with logo',
        'Brand: Button in brand colour',
        'Brand: Footer',
        'Saved blocks: Opening hours',
      ]);

      await user.click(screen.getByRole('button', { name: S.saveBlock }));
      await user.click(screen.getByRole('button', { name: S.saveBlockConfirm }));
      expect(await screen.findByText('Enter a name.')).toBeInTheDocument();
      await user.type(screen.getByLabelText(S.blockName), 'Hours again');
      await user.click(screen.getByRole('button', { name: S.saveBlockConfirm }));
      expect(await screen.findByText(S.blockSaved('Hours again'))).toBeInTheDocument();
      expect(state.blockPosts.at(-1)).toEqual({ name: 'Hours again', content: SECTION });
      await waitFor(() =>
        expect(within(blocks).getByRole('button', { name: 'Saved blocks: Hours again' })).toBeInTheDocument(),
      );
    },
  );
});
