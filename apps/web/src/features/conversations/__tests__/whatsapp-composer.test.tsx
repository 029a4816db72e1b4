import type { TMessage, TWhatsappTemplate, TWhatsappWindow } from '@titan/contracts';
import { act, configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';

import { fail, ok, profile, signIn } from '../../../test/api';
import { fakeRealtime } from '../../../test/realtime';
import { renderApp } from '../../../test/render-app';
import { server } from '../../../test/server';
import { conversation, message, page } from './fixtures';
import { ORDER_UPDATE_TEMPLATE } from '../../../test/whatsapp';

configure({ asyncUtilTimeout: 10_000 });

const MARIA = conversation({
  id: 5,
  channel: 'whatsapp',
  title: 'Order status',
  initiator: { id: 12, name: 'Maria Lopez', email: null },
});

const INBOUND = message({
  id: 'wamid.IN1',
  conversation_id: 5,
  content: 'Where is my order?',
  sender: { id: 12, name: 'Maria Lopez', email: null, role: 'customer', avatar_url: null },
  meta_data: { type: 'text', text: { body: 'Where is my order?' } },
  status: null,
});

const OPEN: TWhatsappWindow = {
  open: true,
  expires_at: new Date(Date.now() + 20 * 3600_000).toISOString(),
  last_customer_message_at: new Date().toISOString(),
};
const CLOSED: TWhatsappWindow = {
  open: false,
  expires_at: null,
  last_customer_message_at: '2026-01-01T10:00:00.000Z',
};

const ORDER_UPDATE = ORDER_UPDATE_TEMPLATE;
const WELCOME: TWhatsappTemplate = {
  ...ORDER_UPDATE,
  id: 2,
  meta_id: '9002',
  name: 'welcome_back',
  language: 'es',
  parameter_format: 'NAMED',
  components: [
    { type: 'HEADER', format: 'IMAGE' },
    { type: 'BODY', text: 'Hola {{first_name}}, ¿seguimos?' },
    { type: 'BUTTONS', buttons: [{ type: 'URL', text: 'Ver pedido', url: 'https://acme.test/o/{{1}}' }] },
  ],
  header_format: 'IMAGE',
  body_parameters: 1,
  header_parameters: 1,
  body_parameter_names: ['first_name'],
  header_parameter_names: [],
  button_parameters: [{ index: 0, type: 'URL', text: 'Ver pedido' }],
};

type TBody = Record<string, unknown>;

/** The stored message the server answers a send with. */
function sent(body: TBody, n: number): TMessage {
  const text = (body.text as { body?: string } | undefined)?.body ?? '';
  return message({
    id: `wamid.OUT${n}`,
    conversation_id: 5,
    content: text,
    sender_type: 'staff',
    sender: { id: 7, name: 'Ada Lovelace', email: 'ada@example.com', role: 'owner', avatar_url: null },
    meta_data: body,
    status: 'accepted',
    created_at: new Date().toISOString(),
  });
}

/** Signed in, Maria's WhatsApp conversation open, the window as given (changeable). */
function openWhatsapp(options: { window?: TWhatsappWindow; messages?: TMessage[] } = {}) {
  signIn();
  const state = { window: options.window ?? OPEN, windowCalls: 0 };
  const sends: TBody[] = [];
  const templateSends: TBody[] = [];
  const templateQueries: string[] = [];
  server.use(
    http.get('/api/users/profile/', () => ok(profile())),
    http.get('/api/msg/conversations/', () => ok(page([MARIA]))),
    http.get('/api/msg/conversations/5/', () => ok(MARIA)),
    http.get('/api/msg/conversations/5/messages/', () => ok(options.messages ?? [INBOUND])),
    http.get('/api/whatsapp/conversations/5/window/', () => {
      state.windowCalls += 1;
      return ok(state.window);
    }),
    http.post('/api/whatsapp/conversations/5/messages/', async ({ request }) => {
      const body = (await request.json()) as TBody;
      sends.push(body);
      return ok(sent(body, sends.length), 201);
    }),
    // Sent media show in the thread (their bytes do not matter here).
    http.get('/api/whatsapp/media/:id/', () => fail(404, 'Not found.')),
    http.get('/api/whatsapp/template/', ({ request }) => {
      templateQueries.push(new URL(request.url).search);
      return ok([ORDER_UPDATE, WELCOME]);
    }),
    http.post('/api/whatsapp/message/send-template/', async ({ request }) => {
      const body = (await request.json()) as TBody;
      templateSends.push(body);
      return ok(
        message({
          id: 'wamid.TPL1',
          conversation_id: 5,
          content: 'Hi Maria, your order #42 has shipped.',
          sender_type: 'staff',
          meta_data: {
            type: 'template',
            template: {
              name: 'order_update',
              components: [{ type: 'body', text: 'Hi Maria, your order #42 has shipped.' }],
            },
          },
          status: 'accepted',
          created_at: new Date().toISOString(),
        }),
        201,
      );
    }),
  );
  const realtime = fakeRealtime();
  const view = renderApp('/messages?conversation=5');
  return { ...view, state, sends, templateSends, templateQueries, realtime };
}

async function composerBox() {
  return screen.findByPlaceholderText('Type a message...');
}

describe('WhatsApp composer: text', { timeout: 20_000 }, () => {
  it('sends text through the WhatsApp route on Enter, with Shift+Enter for new lines', async () => {
    const { sends } = openWhatsapp();
    await screen.findByText('Where is my order?');
    const box = await composerBox();
    // The open window's time left is shown above the box.
    expect(screen.getByTestId('whatsapp-window')).toHaveTextContent(
      /^24-hour window open: closes in (20 h|19 h 5\d min)\. After that, only templates can be sent\.$/,
    );

    await userEvent.type(box, '   {Enter}');
    expect(sends).toEqual([]);

    await userEvent.clear(box);
    await userEvent.type(box, 'It left today{Shift>}{Enter}{/Shift}Tracking soon{Enter}');
    await waitFor(() =>
      expect(sends).toEqual([
        { recipient_type: 'individual', type: 'text', text: { body: 'It left today\nTracking soon' } },
      ]),
    );
    await waitFor(() => expect(box).toHaveValue(''));
    expect(await screen.findByText(/It left today\s+Tracking soon/)).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Accepted' })).toBeInTheDocument();
  });

  it("toasts the server's message when WhatsApp refuses, and the spec's text for a server failure", async () => {
    openWhatsapp();
    const box = await composerBox();
    server.use(
      http.post('/api/whatsapp/conversations/5/messages/', () =>
        fail(429, 'Too many messages to this customer. Wait a few seconds and try again.'),
      ),
    );
    await userEvent.type(box, 'Hello?{Enter}');
    expect(
      await screen.findByText('Too many messages to this customer. Wait a few seconds and try again.'),
    ).toBeInTheDocument();
    expect(box).toHaveValue('Hello?');

    server.use(http.post('/api/whatsapp/conversations/5/messages/', () => fail(500, 'Internal error')));
    await userEvent.type(box, '{Enter}');
    expect(await screen.findByText('Failed to send message. Please try again.')).toBeInTheDocument();
  });
});

describe('WhatsApp composer: attachments', { timeout: 20_000 }, () => {
  it('uploads the picked image at once, then sends its id with the typed caption', async () => {
    const { sends } = openWhatsapp();
    const uploads: string[] = [];
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    server.use(
      http.post('/api/whatsapp/media/', async ({ request }) => {
        const form = await request.formData();
        uploads.push(await (form.get('file') as File).text());
        await held;
        return ok(
          { id: 'media-77', mime_type: 'image/png', size: 3, file_name: 'photo.png', type: 'image' },
          201,
        );
      }),
    );
    const box = await composerBox();

    await userEvent.click(screen.getByRole('button', { name: 'Attach a file' }));
    const menu = await screen.findByRole('menu');
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((i) => i.textContent),
    ).toEqual(['Image', 'Video', 'Audio', 'Document']);
    await userEvent.click(within(menu).getByRole('menuitem', { name: 'Image' }));
    const input = screen.getByTestId('whatsapp-attachment-input');
    expect(input).toHaveAttribute('accept', 'image/png,image/jpeg,image/jpg,image/webp');
    await userEvent.upload(input, new File(['png'], 'photo.png', { type: 'image/png' }));

    // Uploading: the chip says so and nothing can be sent yet.
    expect(await screen.findByRole('status', { name: 'Uploading photo.png' })).toBeInTheDocument();
    await waitFor(() => expect(uploads).toEqual(['png']));
    await userEvent.type(box, 'Your parcel');
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();
    release();
    await waitFor(() => expect(screen.queryByRole('status', { name: 'Uploading photo.png' })).toBeNull());
    expect(screen.getByText('photo.png')).toBeInTheDocument();

    await userEvent.type(box, '{Enter}');
    await waitFor(() =>
      expect(sends).toEqual([
        { recipient_type: 'individual', type: 'image', image: { id: 'media-77', caption: 'Your parcel' } },
      ]),
    );
    await waitFor(() => expect(screen.queryByText('photo.png')).toBeNull());
    expect(box).toHaveValue('');
  });

  it('sends a document with its file name, and sends the media alone when nothing is typed', async () => {
    const { sends } = openWhatsapp();
    server.use(
      http.post('/api/whatsapp/media/', () =>
        ok(
          {
            id: 'media-88',
            mime_type: 'application/pdf',
            size: 3,
            file_name: 'invoice.pdf',
            type: 'document',
          },
          201,
        ),
      ),
    );
    await composerBox();
    await userEvent.click(screen.getByRole('button', { name: 'Attach a file' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Document' }));
    const input = screen.getByTestId('whatsapp-attachment-input');
    expect(input.getAttribute('accept') ?? '').toBe('');
    await userEvent.upload(input, new File(['pdf'], 'invoice.pdf', { type: 'application/pdf' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Send' })).toBeEnabled());

    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() =>
      expect(sends).toEqual([
        {
          recipient_type: 'individual',
          type: 'document',
          document: { id: 'media-88', filename: 'invoice.pdf' },
        },
      ]),
    );
  });

  it('sends audio by its id without a caption (WhatsApp refuses one), the typed text after it', async () => {
    const { sends } = openWhatsapp();
    server.use(
      http.post('/api/whatsapp/media/', () =>
        ok({ id: 'media-99', mime_type: 'audio/ogg', size: 3, file_name: 'note.ogg', type: 'audio' }, 201),
      ),
    );
    const box = await composerBox();
    await userEvent.click(screen.getByRole('button', { name: 'Attach a file' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Audio' }));
    const input = screen.getByTestId('whatsapp-attachment-input');
    const accept = input.getAttribute('accept') ?? '';
    for (const type of [
      'audio/aac',
      'audio/mpeg',
      'audio/ogg',
      'audio/wav',
      'audio/mp4',
      'audio/m4a',
      'audio/opus',
    ])
      expect(accept.split(',')).toContain(type);
    await userEvent.upload(input, new File(['ogg'], 'note.ogg', { type: 'audio/ogg' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Send' })).toBeEnabled());
    await userEvent.type(box, 'Listen to this{Enter}');
    await waitFor(() =>
      expect(sends).toEqual([
        { recipient_type: 'individual', type: 'audio', audio: { id: 'media-99' } },
        { recipient_type: 'individual', type: 'text', text: { body: 'Listen to this' } },
      ]),
    );
  });

  it('drops a removed attachment: the next send is plain text', async () => {
    const { sends } = openWhatsapp();
    server.use(
      http.post('/api/whatsapp/media/', () =>
        ok({ id: 'media-1', mime_type: 'image/png', size: 3, file_name: 'a.png', type: 'image' }, 201),
      ),
    );
    const box = await composerBox();
    await userEvent.click(screen.getByRole('button', { name: 'Attach a file' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Image' }));
    await userEvent.upload(
      screen.getByTestId('whatsapp-attachment-input'),
      new File(['a'], 'a.png', { type: 'image/png' }),
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Remove a.png' }));
    expect(screen.queryByText('a.png')).toBeNull();
    await userEvent.type(box, 'Just text{Enter}');
    await waitFor(() =>
      expect(sends).toEqual([{ recipient_type: 'individual', type: 'text', text: { body: 'Just text' } }]),
    );
  });

  it('toasts a failed upload with the server\'s message or "Unable to upload file", resetting the input', async () => {
    const { sends } = openWhatsapp();
    server.use(
      http.post('/api/whatsapp/media/', () =>
        fail(400, 'WhatsApp does not accept this kind of image.', null),
      ),
    );
    await composerBox();
    await userEvent.click(screen.getByRole('button', { name: 'Attach a file' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Image' }));
    const input = screen.getByTestId<HTMLInputElement>('whatsapp-attachment-input');
    await userEvent.upload(input, new File(['png'], 'huge.png', { type: 'image/png' }));
    expect(await screen.findByText('WhatsApp does not accept this kind of image.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('huge.png')).toBeNull());
    expect(input.value).toBe('');
    expect(input.files).toHaveLength(0);

    server.use(http.post('/api/whatsapp/media/', () => fail(500, 'Internal error')));
    await userEvent.click(screen.getByRole('button', { name: 'Attach a file' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Video' }));
    await userEvent.upload(input, new File(['mp4'], 'clip.mp4', { type: 'video/mp4' }));
    expect(await screen.findByText('Unable to upload file', {}, { timeout: 4000 })).toBeInTheDocument();
    expect(input.value).toBe('');
    expect(sends).toEqual([]);
  });

  it('toasts "Unable to upload file", not the generic text, when the server says nothing', async () => {
    openWhatsapp();
    server.use(http.post('/api/whatsapp/media/', () => fail(400, '')));
    await composerBox();
    await userEvent.click(screen.getByRole('button', { name: 'Attach a file' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Image' }));
    const input = screen.getByTestId<HTMLInputElement>('whatsapp-attachment-input');
    await userEvent.upload(input, new File(['png'], 'photo.png', { type: 'image/png' }));
    expect(await screen.findByText('Unable to upload file')).toBeInTheDocument();
    expect(screen.queryByText('Something went wrong')).toBeNull();
    expect(input.value).toBe('');
  });
});

describe('WhatsApp media that cannot be fetched', { timeout: 20_000 }, () => {
  const IMAGES = [1, 2, 3].map((n) =>
    message({
      id: `wamid.IMG${n}`,
      conversation_id: 5,
      content: '',
      meta_data: { type: 'image', image: { id: `media-${n}` } },
      status: null,
    }),
  );

  it("toast the server's message once per conversation view, however many fail", async () => {
    openWhatsapp({ messages: IMAGES });
    server.use(http.get('/api/whatsapp/media/:id/', () => fail(403, 'You may not see this file.')));
    await waitFor(() =>
      expect(screen.getAllByText('Unable to load image, video or document')).toHaveLength(3),
    );
    expect(await screen.findAllByText('You may not see this file.')).toHaveLength(1);
  });

  it('toast "Something went wrong" when the server gives no message of its own', async () => {
    openWhatsapp({ messages: IMAGES.slice(0, 1) });
    server.use(http.get('/api/whatsapp/media/:id/', () => fail(500, 'Internal error')));
    expect(await screen.findByText('Unable to load image, video or document')).toBeInTheDocument();
    expect(await screen.findByText('Something went wrong')).toBeInTheDocument();
  });
});

describe('WhatsApp composer: replies', { timeout: 20_000 }, () => {
  it('quotes the message being replied to and sends its wamid as context', async () => {
    const { sends } = openWhatsapp();
    await screen.findByText('Where is my order?');
    await userEvent.click(await screen.findByRole('button', { name: 'Reply to Maria Lopez' }));

    const bar = screen.getByRole('group', { name: 'Replying to Maria Lopez' });
    expect(within(bar).getByText('Where is my order?')).toBeInTheDocument();
    await userEvent.type(await composerBox(), 'On its way{Enter}');
    await waitFor(() =>
      expect(sends).toEqual([
        {
          recipient_type: 'individual',
          type: 'text',
          text: { body: 'On its way' },
          context: { message_id: 'wamid.IN1' },
        },
      ]),
    );
    await waitFor(() => expect(screen.queryByRole('group', { name: 'Replying to Maria Lopez' })).toBeNull());
    // The sent reply quotes the message it answers.
    const reply = (await screen.findByText('On its way')).closest('li')!;
    expect(within(reply).getByRole('blockquote', { name: 'Replied message' })).toHaveTextContent(
      'Where is my order?',
    );
  });

  it('cancels a reply', async () => {
    const { sends } = openWhatsapp();
    await userEvent.click(await screen.findByRole('button', { name: 'Reply to Maria Lopez' }));
    await userEvent.click(screen.getByRole('button', { name: 'Cancel reply' }));
    await userEvent.type(await composerBox(), 'Hi{Enter}');
    await waitFor(() => expect(sends).toHaveLength(1));
    expect(sends[0]).not.toHaveProperty('context');
  });

  it("shows an inbound reply's quote when the replied message is loaded", async () => {
    openWhatsapp({
      messages: [
        message({
          id: 'wamid.OUT0',
          conversation_id: 5,
          content: 'Your order shipped',
          sender_type: 'staff',
          sender: { id: 7, name: 'Ada Lovelace', email: null, role: 'owner', avatar_url: null },
          meta_data: { type: 'text', text: { body: 'Your order shipped' } },
          status: 'read',
        }),
        message({
          id: 'wamid.IN2',
          conversation_id: 5,
          content: 'Thanks!',
          meta_data: {
            type: 'text',
            text: { body: 'Thanks!' },
            context: { from: '15550100000', id: 'wamid.OUT0' },
          },
          status: null,
        }),
        message({
          id: 'wamid.IN3',
          conversation_id: 5,
          content: 'And this?',
          meta_data: { type: 'text', text: { body: 'And this?' }, context: { id: 'wamid.NOT_LOADED' } },
          status: null,
        }),
      ],
    });
    const thanks = (await screen.findByText('Thanks!')).closest('li')!;
    const quote = within(thanks).getByRole('blockquote', { name: 'Replied message' });
    expect(quote).toHaveTextContent('Ada Lovelace');
    expect(quote).toHaveTextContent('Your order shipped');
    const other = screen.getByText('And this?').closest('li')!;
    expect(within(other).queryByRole('blockquote')).toBeNull();
  });
});

describe('WhatsApp composer: the 24-hour window', { timeout: 20_000 }, () => {
  it('offers approved templates once the window has closed and sends the chosen one with its parameters', async () => {
    const { templateSends, templateQueries, sends } = openWhatsapp({ window: CLOSED });

    expect(
      await screen.findByText(
        'The 24-hour window has closed. Send an approved template to restart the conversation.',
      ),
    ).toBeInTheDocument();
    expect(screen.queryByPlaceholderText('Type a message...')).toBeNull();
    // Replies need the window open.
    expect(screen.queryByRole('button', { name: 'Reply to Maria Lopez' })).toBeNull();

    const region = screen.getByRole('region', { name: 'Send a template' });
    const select = await within(region).findByLabelText('Template');
    expect(templateQueries).toEqual(['?status=APPROVED']);
    expect(Array.from((select as HTMLSelectElement).options).map((o) => o.text)).toEqual([
      'Choose a template',
      'order_update (en_US)',
      'welcome_back (es)',
    ]);
    await userEvent.selectOptions(select, 'order_update (en_US)');

    const send = within(region).getByRole('button', { name: 'Send template' });
    expect(send).toBeDisabled();
    const preview = within(region).getByRole('figure', { name: 'Preview' });
    expect(preview).toHaveTextContent('Order {{1}}');
    expect(preview).toHaveTextContent('Hi {{1}}, your order {{2}} has shipped.');

    await userEvent.type(within(region).getByLabelText('Header {{1}}'), '#42');
    await userEvent.type(within(region).getByLabelText('Body {{1}}'), 'Maria');
    await userEvent.type(within(region).getByLabelText('Body {{2}}'), '#42');
    expect(preview).toHaveTextContent('Order #42');
    expect(preview).toHaveTextContent('Hi Maria, your order #42 has shipped.');

    await userEvent.click(send);
    await waitFor(() =>
      expect(templateSends).toEqual([
        {
          conversation_id: 5,
          name: 'order_update',
          language: 'en_US',
          components: [
            {
              type: 'body',
              parameters: [
                { type: 'text', text: 'Maria' },
                { type: 'text', text: '#42' },
              ],
            },
            { type: 'header', parameters: [{ type: 'text', text: '#42' }] },
          ],
        },
      ]),
    );
    expect(
      await screen.findByText('Hi Maria, your order #42 has shipped.', { selector: 'p' }),
    ).toBeInTheDocument();
    expect(sends).toEqual([]);
  });

  it('sends named parameters with their names, a media header by link and URL button parameters', async () => {
    const { templateSends } = openWhatsapp({ window: CLOSED });
    const region = await screen.findByRole('region', { name: 'Send a template' });
    await userEvent.selectOptions(await within(region).findByLabelText('Template'), 'welcome_back (es)');
    await userEvent.type(within(region).getByLabelText('Body {{first_name}}'), 'Maria');
    expect(within(region).getByRole('figure', { name: 'Preview' })).toHaveTextContent(
      'Hola Maria, ¿seguimos?',
    );
    const send = within(region).getByRole('button', { name: 'Send template' });
    expect(send).toBeDisabled();
    await userEvent.type(within(region).getByLabelText('Header image URL'), 'https://acme.test/box.png');
    await userEvent.type(within(region).getByLabelText('Link of the “Ver pedido” button'), 'A-42');
    await userEvent.click(send);
    await waitFor(() =>
      expect(templateSends).toEqual([
        {
          conversation_id: 5,
          name: 'welcome_back',
          language: 'es',
          components: [
            { type: 'body', parameters: [{ type: 'text', text: 'Maria', parameter_name: 'first_name' }] },
            { type: 'header', parameters: [{ type: 'image', image: { link: 'https://acme.test/box.png' } }] },
            { type: 'button', sub_type: 'url', index: 0, parameters: [{ type: 'text', text: 'A-42' }] },
          ],
        },
      ]),
    );
  });

  it('switches to the template picker when a send answers 409', async () => {
    const { state } = openWhatsapp();
    const box = await composerBox();
    await waitFor(() => expect(state.windowCalls).toBe(1));
    server.use(
      http.post('/api/whatsapp/conversations/5/messages/', () =>
        fail(409, 'The 24-hour window has closed: send an approved template.'),
      ),
    );
    state.window = CLOSED;
    await userEvent.type(box, 'Still there?{Enter}');
    expect(
      await screen.findByText('The 24-hour window has closed: send an approved template.'),
    ).toBeInTheDocument();
    expect(await screen.findByRole('region', { name: 'Send a template' })).toBeInTheDocument();
    expect(state.windowCalls).toBe(2);
  });

  it('reopens the box when the customer writes again', async () => {
    const { state, realtime } = openWhatsapp({ window: CLOSED });
    await screen.findByRole('region', { name: 'Send a template' });
    await waitFor(() =>
      expect(realtime.subscriptions().some((s) => s.topic === 'messages' && s.conversation_id === 5)).toBe(
        true,
      ),
    );
    state.window = OPEN;
    act(() =>
      realtime.change('messages', {
        table: 'wa_messages',
        event: 'INSERT',
        old: null,
        new: message({
          id: 'wamid.IN9',
          conversation_id: 5,
          content: 'Hello again',
          meta_data: { type: 'text', text: { body: 'Hello again' } },
          status: null,
          created_at: new Date().toISOString(),
        }),
      }),
    );
    expect(await screen.findByText('Hello again')).toBeInTheDocument();
    expect(await composerBox()).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Send a template' })).toBeNull();
  });
});
