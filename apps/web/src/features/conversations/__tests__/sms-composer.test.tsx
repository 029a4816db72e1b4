// The composer on an SMS conversation (issue 30): no attachments, the characters, segments and
// encoding of the reply shown as it is typed, and the server's reason when a reply is refused (the
// customer replied STOP).
import { configure, fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';

import { fail, ok, profile, signIn } from '../../../test/api';
import { fakeRealtime } from '../../../test/realtime';
import { renderApp } from '../../../test/render-app';
import { server } from '../../../test/server';
import { conversation, message, page } from './fixtures';

configure({ asyncUtilTimeout: 15_000 });

const DANA = conversation({
  id: 7,
  channel: 'sms',
  title: 'Dana',
  initiator: { id: 21, name: 'Dana', email: null },
});

const STOPPED =
  'Not sent: +12015550123 replied STOP and no longer receives texts from this business. They can text START to receive them again.';

function openSms() {
  signIn();
  const sends: unknown[] = [];
  server.use(
    http.get('/api/users/profile/', () => ok(profile())),
    http.get('/api/business/users/', () => ok([])),
    http.get('/api/msg/chat-groups/', () => ok([])),
    http.get('/api/msg/conversations/counts/', () =>
      ok({ all: 1, mine: 0, unassigned: 1, assignees: [], groups: [] }),
    ),
    http.get('/api/msg/conversations/', () => ok(page([DANA]))),
    http.get('/api/msg/conversations/7/', () => ok(DANA)),
    http.get('/api/msg/conversations/7/messages/', () =>
      ok([message({ id: 1, conversation_id: 7, content: 'Is my order shipped?', sender_type: 'customer' })]),
    ),
    http.post('/api/msg/conversations/7/messages/', async ({ request }) => {
      sends.push(await request.json());
      return fail(409, STOPPED);
    }),
    http.post('/api/upload/', () =>
      ok({
        presigned_url: '/x',
        key: 'chat_media/1/red.png',
        size: 68,
        mime_type: 'image/png',
        file_name: 'red.png',
      }),
    ),
  );
  fakeRealtime();
  renderApp('/messages?conversation=7');
  return { sends };
}

describe('SMS composer', { timeout: 60_000 }, () => {
  it('shows segments and encoding as staff type, offers no attachment, and shows why a reply was refused', async () => {
    const { sends } = openSms();
    const box = await screen.findByPlaceholderText('Type a message...');
    expect(screen.queryByRole('button', { name: 'Attach a file' })).toBeNull();
    expect(screen.getByTestId('sms-counter')).toHaveTextContent('0 characters · 1 segment (GSM-7)');
    await userEvent.type(box, 'Yes, it left today');
    expect(screen.getByTestId('sms-counter')).toHaveTextContent('18 characters · 1 segment (GSM-7)');
    await userEvent.type(box, ' 🚚');
    expect(screen.getByTestId('sms-counter')).toHaveTextContent('20 characters · 1 segment (UCS-2)');
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(sends).toHaveLength(1));
    expect(sends[0]).toEqual({ message_type: 'text', content: 'Yes, it left today 🚚' });
    expect(await screen.findByText(STOPPED)).toBeInTheDocument();
  });

  it('attaches a picture as MMS: the counter says how it is billed, the reply carries the picture’s key', async () => {
    const { sends } = openSms();
    const box = await screen.findByPlaceholderText('Type a message...');
    await userEvent.type(box, 'This red');
    fireEvent.change(screen.getByTestId('mms-input'), {
      target: { files: [new File(['%PDF'], 'terms.pdf', { type: 'application/pdf' })] },
    });
    expect(await screen.findByText('MMS takes a JPEG, PNG or GIF picture.')).toBeInTheDocument();
    fireEvent.change(screen.getByTestId('mms-input'), {
      target: { files: [new File([new Uint8Array(68)], 'red.png', { type: 'image/png' })] },
    });
    expect(await screen.findByText('red.png')).toBeInTheDocument();
    expect(screen.getByTestId('sms-counter')).toHaveTextContent(
      '8 characters · with a picture: one MMS (billed as an MMS, not per segment)',
    );
    await waitFor(() => expect(screen.getByRole('button', { name: 'Send' })).toBeEnabled());
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(sends).toHaveLength(1));
    expect(sends[0]).toEqual({
      message_type: 'text',
      content: 'This red',
      attachment_ids: ['chat_media/1/red.png'],
    });
  });
});
