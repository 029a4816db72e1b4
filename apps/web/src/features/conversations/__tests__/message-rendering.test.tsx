import type { TMessage } from '@titan/contracts';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, onTestFinished, vi } from 'vitest';

import { AppProviders } from '../../../test/render-app';
import { fail, ok, signIn } from '../../../test/api';
import { server } from '../../../test/server';
import { MessageItem } from '../components/message-item';
import { message } from './fixtures';

const CONVERSATION = { initiator: { id: 11, name: 'Grace Hopper', email: null } };

function show(overrides: Partial<TMessage>) {
  signIn();
  const view = render(
    <AppProviders>
      <ol>
        <MessageItem message={message(overrides)} conversation={CONVERSATION} />
      </ol>
    </AppProviders>,
  );
  return { ...view, item: view.container.querySelector('li')! };
}

/** The media endpoint answers a PNG for `id`, shown at `objectUrl` (jsdom has no object URLs). */
function servePng(id: string, objectUrl: string) {
  const original = URL.createObjectURL;
  URL.createObjectURL = vi.fn(() => objectUrl);
  onTestFinished(() => {
    URL.createObjectURL = original;
  });
  server.use(
    http.get(`/api/whatsapp/media/${id}/`, () =>
      HttpResponse.arrayBuffer(new Uint8Array([137, 80, 78, 71]).buffer, {
        headers: { 'content-type': 'image/png' },
      }),
    ),
  );
}

const wa = (meta: Record<string, unknown>, overrides: Partial<TMessage> = {}) => ({
  id: 'wamid.HBgLMTIzNDU2Nzg5MA',
  meta_data: meta,
  content: '',
  ...overrides,
});

describe('own-channel messages', () => {
  it('shows text with the sender initials and no delivery ticks', () => {
    const { item } = show({ content: 'Where is my parcel?' });
    expect(within(item).getByText('Where is my parcel?')).toBeInTheDocument();
    expect(within(item).getByRole('img', { name: 'Grace Hopper' })).toHaveTextContent('GH');
    expect(within(item).queryByRole('img', { name: 'Sent' })).toBeNull();
  });

  it('names the AI first responder’s answer as the AI assistant’s', () => {
    // Its rating reads the run (see ai-rating.test.tsx).
    server.use(
      http.get('/api/ai/runs/:id/', ({ params }) =>
        ok({
          id: params.id,
          kind: 'responder',
          status: 'answered',
          conversation_id: 1,
          outcome: null,
          steps: [],
          prompt_tokens: 1,
          completion_tokens: 1,
          rating: null,
          rating_reason: null,
          rated_by: null,
          rated_at: null,
          attempts: 1,
          created_at: '2026-11-28T10:00:00Z',
          finished_at: '2026-11-28T10:00:01Z',
        }),
      ),
    );
    const { item } = show({
      sender_type: 'agent',
      sender: null,
      sender_id: null,
      content: 'We refund damaged umbrellas within 5 working days.',
      meta_data: { run_id: '00000000-0000-0000-0000-000000000001', sources: [] },
    });
    expect(within(item).getByRole('img', { name: 'AI assistant' })).toHaveTextContent('AA');
  });

  it('shows a file as an "Attachment Added" link with an inline preview for images', () => {
    const url = '/files/public/public_chat_media/1/2/u/cat.png?exp=1&sig=x';
    const { item } = show({
      message_type: 'file',
      content: url,
      meta_data: { key: 'k', file_name: 'cat.png', mime_type: 'image/png', size: 2048 },
    });
    expect(within(item).getByRole('link', { name: 'Attachment Added' })).toHaveAttribute('href', url);
    expect(within(item).getByRole('img', { name: 'cat.png' })).toHaveAttribute('src', url);
  });

  it('previews other files by name and size', () => {
    const { item } = show({
      message_type: 'file',
      content: '/files/x/report.pdf?exp=1&sig=x',
      meta_data: { key: 'k', file_name: 'report.pdf', mime_type: 'application/pdf', size: 3 * 1024 * 1024 },
    });
    expect(within(item).getByRole('link', { name: 'Attachment Added' })).toBeInTheDocument();
    expect(within(item).getByText('report.pdf')).toBeInTheDocument();
    expect(within(item).getByText('3.0 MB')).toBeInTheDocument();
    expect(within(item).queryByRole('img', { name: 'report.pdf' })).toBeNull();
  });

  it('uses the staff sender name for replies', () => {
    const { item } = show({
      sender_type: 'staff',
      sender: { id: 7, name: 'Ada Lovelace', email: 'ada@example.com', role: 'owner', avatar_url: null },
    });
    expect(within(item).getByRole('img', { name: 'Ada Lovelace' })).toHaveTextContent('AL');
  });
});

describe('WhatsApp messages', () => {
  it('renders text from text.body', () => {
    const { item } = show(wa({ type: 'text', text: { body: 'Hola from WhatsApp' } }));
    expect(within(item).getByText('Hola from WhatsApp')).toBeInTheDocument();
  });

  it('renders a template: header text, body, footer and its three kinds of buttons', () => {
    const { item } = show(
      wa({
        type: 'template',
        template: {
          name: 'order_update',
          components: [
            { type: 'HEADER', format: 'TEXT', text: 'Your order' },
            { type: 'BODY', text: 'Order 42 has shipped.' },
            { type: 'FOOTER', text: 'Reply STOP to opt out' },
            {
              type: 'BUTTONS',
              buttons: [
                { type: 'PHONE_NUMBER', text: 'Call us', phone_number: '+15550100' },
                { type: 'URL', text: 'Track it', url: 'https://example.com/track/42' },
                { type: 'QUICK_REPLY', text: 'Thanks' },
              ],
            },
          ],
        },
      }),
    );
    expect(within(item).getByText('Your order')).toBeInTheDocument();
    expect(within(item).getByText('Order 42 has shipped.')).toBeInTheDocument();
    expect(within(item).getByText('Reply STOP to opt out')).toBeInTheDocument();
    const buttons = within(item).getByRole('group', { name: 'Template buttons' });
    expect(within(buttons).getByRole('link', { name: 'Call us' })).toHaveAttribute('href', 'tel:+15550100');
    expect(within(buttons).getByRole('link', { name: 'Track it' })).toHaveAttribute(
      'href',
      'https://example.com/track/42',
    );
    expect(within(buttons).getByText('Thanks')).toBeInTheDocument();
  });

  it('renders a template whose header is a document', () => {
    const { item } = show(
      wa({
        type: 'template',
        template: {
          components: [
            {
              type: 'header',
              parameters: [
                {
                  type: 'document',
                  document: { link: 'https://example.com/i.pdf', filename: 'invoice.pdf' },
                },
              ],
            },
            { type: 'body', parameters: [{ type: 'text', text: 'Here is your invoice' }] },
          ],
        },
      }),
    );
    expect(within(item).getByRole('link', { name: 'invoice.pdf' })).toHaveAttribute(
      'href',
      'https://example.com/i.pdf',
    );
    expect(within(item).getByText('Here is your invoice')).toBeInTheDocument();
  });

  it('renders a template whose header is an image or a video link', () => {
    const template = (type: 'image' | 'video', link: string) =>
      wa({
        type: 'template',
        template: {
          components: [
            { type: 'header', parameters: [{ type, [type]: { link } }] },
            { type: 'body', parameters: [{ type: 'text', text: `A ${type} header` }] },
          ],
        },
      });
    const image = show(template('image', 'https://example.com/sale.png')).item;
    expect(within(image).getByRole('img', { name: 'Template header image' })).toHaveAttribute(
      'src',
      'https://example.com/sale.png',
    );
    expect(within(image).getByText('A image header')).toBeInTheDocument();
    cleanup();
    const video = show(template('video', 'https://example.com/tour.mp4')).item;
    expect(video.querySelector('video')).toHaveAttribute('src', 'https://example.com/tour.mp4');
    expect(within(video).getByText('A video header')).toBeInTheDocument();
  });

  it('renders a template whose image header was uploaded, through the media endpoint', async () => {
    servePng('header-1', 'blob:http://localhost:3000/header');
    const { item } = show(
      wa({
        type: 'template',
        template: {
          components: [{ type: 'header', parameters: [{ type: 'image', image: { id: 'header-1' } }] }],
        },
      }),
    );
    expect(await within(item).findByRole('img', { name: 'Image' })).toHaveAttribute(
      'src',
      'blob:http://localhost:3000/header',
    );
  });

  it('renders a quick-reply button message from button.text', () => {
    const { item } = show(wa({ type: 'button', button: { text: 'Yes please', payload: 'YES' } }));
    expect(within(item).getByText('Yes please')).toBeInTheDocument();
  });

  it('says "Unsupported message type" for any other type', () => {
    const { item } = show(wa({ type: 'location', location: { latitude: 1, longitude: 2 } }));
    expect(within(item).getByText('Unsupported message type')).toBeInTheDocument();
  });

  it('loads an image through the media endpoint and shows its caption', async () => {
    servePng('media-1', 'blob:http://localhost:3000/abc');
    const { item } = show(wa({ type: 'image', image: { id: 'media-1', caption: 'The broken part' } }));
    expect(await within(item).findByRole('img', { name: 'Image' })).toHaveAttribute(
      'src',
      'blob:http://localhost:3000/abc',
    );
    expect(within(item).getByText('The broken part')).toBeInTheDocument();
  });

  it('plays an audio message through the media endpoint', async () => {
    servePng('media-a', 'blob:http://localhost:3000/voice');
    const { item } = show(wa({ type: 'audio', audio: { id: 'media-a' } }));
    await waitFor(() =>
      expect(item.querySelector('audio')).toHaveAttribute('src', 'blob:http://localhost:3000/voice'),
    );
    expect(within(item).queryByText('Unsupported message type')).toBeNull();
  });

  it.each(['image', 'video', 'audio', 'document'] as const)(
    'shows "Unable to load image, video or document" when a %s cannot be fetched',
    async (type) => {
      server.use(http.get('/api/whatsapp/media/:id/', () => fail(404, 'Not found.')));
      const { item } = show(wa({ type, [type]: { id: `m-${type}`, filename: 'x.pdf' } }));
      expect(await within(item).findByText('Unable to load image, video or document')).toBeInTheDocument();
    },
  );

  it.each([
    ['accepted', 'Accepted'],
    ['sent', 'Sent'],
    ['delivered', 'Delivered'],
    ['read', 'Read'],
    ['failed', 'Failed'],
  ] as const)('marks an outgoing message %s', (status, label) => {
    const { item } = show(
      wa({ type: 'text', text: { body: 'On its way' } }, { sender_type: 'staff', status, sender: null }),
    );
    expect(within(item).getByRole('img', { name: label })).toHaveAttribute('data-status', status);
  });

  it('shows why a failed message was not delivered, under the bubble', () => {
    const { item } = show(
      wa(
        {
          type: 'text',
          text: { body: 'Are you there?' },
          errors: [
            {
              code: 131047,
              title: 'Re-engagement message',
              message: 'Re-engagement message',
              error_data: { details: 'More than 24 hours have passed since the customer last replied.' },
            },
          ],
        },
        { sender_type: 'staff', status: 'failed', sender: null },
      ),
    );
    expect(within(item).getByRole('img', { name: 'Failed' })).toHaveAttribute('data-status', 'failed');
    const reason = within(item).getByRole('note', { name: 'Why it failed' });
    expect(reason).toHaveTextContent(
      'Re-engagement message — More than 24 hours have passed since the customer last replied. (131047)',
    );
    expect(reason).toHaveClass('text-destructive');
  });

  it('shows no reason when a failed message carries none, nor for delivered ones', () => {
    const { item } = show(
      wa({ type: 'text', text: { body: 'Hi' } }, { sender_type: 'staff', status: 'failed', sender: null }),
    );
    expect(within(item).getByRole('img', { name: 'Failed' })).toBeInTheDocument();
    expect(within(item).queryByRole('note')).toBeNull();
  });

  it('shows no ticks on incoming WhatsApp messages', () => {
    show(wa({ type: 'text', text: { body: 'Hi' } }, { sender_type: 'customer', status: 'read' }));
    expect(screen.queryByRole('img', { name: 'Read' })).toBeNull();
  });
});
