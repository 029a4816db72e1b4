// An email conversation in the inbox (issue 30): inbound mail shows its sanitised HTML with the quoted
// history folded behind "Show quoted text", its cc and attachments; the reply box is an email
// composer — rich text sent as HTML and text, cc and bcc checked as typed, a subject of its own for a
// new thread, files uploaded first and sent by key.
import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { beforeAll, describe, expect, it } from 'vitest';

import { fail, ok, profile, signIn } from '../../../test/api';
import { fakeRealtime } from '../../../test/realtime';
import { renderApp } from '../../../test/render-app';
import { server } from '../../../test/server';
import { emailHtml } from '../email/quoted-html';
import { conversation, message, page } from './fixtures';

configure({ asyncUtilTimeout: 15_000 });

// jsdom lays nothing out: ProseMirror asks a Range where the caret is when it scrolls to it.
beforeAll(() => {
  Range.prototype.getClientRects = () => [] as unknown as DOMRectList;
  Range.prototype.getBoundingClientRect = () => new DOMRect();
  document.elementFromPoint = () => null;
});

const DANA = conversation({
  id: 9,
  channel: 'email',
  title: 'Broken widget',
  initiator: { id: 21, name: 'Dana', email: 'dana@customer.test' },
  spam: true,
});

const INBOUND = message({
  id: 1,
  conversation_id: 9,
  content: 'It broke again, photo attached.',
  sender_type: 'customer',
  meta_data: {
    message_id: '<m1@customer.test>',
    subject: 'Broken widget',
    cc: ['boss@customer.test'],
    html:
      '<p>It broke <b>again</b>, photo attached.</p><script>alert(1)</script>' +
      '<div class="gmail_quote"><div class="gmail_attr">On Mon, Acme wrote:</div>' +
      '<blockquote>Our new widget is here</blockquote></div>',
    quoted_folded: true,
    full_text: 'It broke again, photo attached.\n\nOn Mon, Acme wrote:\n> Our new widget is here',
    attachments: [
      {
        key: 'email_attachments/1/photo.png',
        file_name: 'photo.png',
        mime_type: 'image/png',
        size: 2048,
        url: '/files/photo.png',
      },
    ],
  },
});

function openEmail({ refuse }: { refuse?: string } = {}) {
  signIn();
  const sends: Record<string, unknown>[] = [];
  const uploads: string[] = [];
  server.use(
    http.get('/api/users/profile/', () => ok(profile())),
    http.get('/api/business/users/', () => ok([])),
    http.get('/api/msg/chat-groups/', () => ok([])),
    http.get('/api/msg/conversations/counts/', () =>
      ok({ all: 1, mine: 0, unassigned: 1, assignees: [], groups: [], labels: [] }),
    ),
    http.get('/api/msg/conversations/', () => ok(page([DANA]))),
    http.get('/api/msg/conversations/9/', () => ok(DANA)),
    http.get('/api/msg/conversations/9/messages/', () => ok([INBOUND])),
    http.post('/api/upload/', async ({ request }) => {
      const form = await request.formData();
      const file = form.get('file') as File;
      uploads.push(String(form.get('prefix')));
      return ok({
        presigned_url: '/x',
        key: `chat_media/1/upload-${uploads.length}`,
        size: file.size,
        mime_type: file.type,
        file_name: file.name,
      });
    }),
    http.post('/api/msg/conversations/9/messages/', async ({ request }) => {
      const body = (await request.json()) as Record<string, unknown>;
      sends.push(body);
      if (refuse) return fail(409, refuse);
      return ok(
        message({
          id: 2,
          conversation_id: 9,
          content: String(body.content),
          sender_type: 'staff',
          sender: null,
          meta_data: {
            message_id: '<r1@acme.test>',
            subject: 'Re: Broken widget',
            html: body.html,
            cc: body.cc,
          },
        }),
        201,
      );
    }),
  );
  fakeRealtime();
  renderApp('/messages?conversation=9');
  return { sends, uploads };
}

describe('email conversations in the inbox', { timeout: 90_000 }, () => {
  it('shows the mail’s HTML without scripts, the quoted history folded, its cc and attachment', async () => {
    openEmail();
    const body = await screen.findByTestId('email-html');
    // The list row says the conversation was marked as spam.
    const row = document.querySelector('[data-conversation-id="9"]') as HTMLElement;
    expect(within(row).getByText('Spam')).toBeInTheDocument();
    expect(body).toHaveTextContent('It broke again, photo attached.');
    expect(body.querySelector('b')).not.toBeNull();
    expect(body.querySelector('script')).toBeNull();
    expect(body).not.toHaveTextContent('Our new widget is here');
    expect(screen.getByText('Cc: boss@customer.test')).toBeInTheDocument();
    const files = screen.getByRole('list', { name: 'Attachments' });
    expect(within(files).getByRole('link', { name: /photo\.png/ })).toHaveAttribute(
      'href',
      '/files/photo.png',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Show quoted text' }));
    expect(screen.getByTestId('email-html')).toHaveTextContent('Our new widget is here');
    await userEvent.click(screen.getByRole('button', { name: 'Hide quoted text' }));
    expect(screen.getByTestId('email-html')).not.toHaveTextContent('Our new widget is here');
  });

  it('sends rich text with cc, bcc, a new subject and an attachment', async () => {
    const { sends, uploads } = openEmail();
    const editor = await screen.findByRole('textbox', { name: 'Email body' });
    expect(screen.getByTestId('email-to')).toHaveTextContent('dana@customer.test');
    expect(screen.getByLabelText('Subject')).toHaveValue('Re: Broken widget');
    // Nothing typed: nothing to send; the textarea composer is gone.
    expect(screen.getByRole('button', { name: 'Send email' })).toBeDisabled();
    expect(screen.queryByPlaceholderText('Type a message...')).toBeNull();

    await userEvent.click(editor);
    await userEvent.click(screen.getByRole('button', { name: 'Bold' }));
    await userEvent.keyboard('Sorry');
    await userEvent.click(screen.getByRole('button', { name: 'Bold' }));
    await userEvent.keyboard(' about that!');

    await userEvent.click(screen.getByRole('button', { name: 'Cc / Bcc' }));
    const cc = screen.getByLabelText('Cc');
    await userEvent.type(cc, 'boss@customer.test, not-an-address');
    expect(await screen.findByText('Cc: not-an-address is not a valid address.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Send email' })).toBeDisabled();
    await userEvent.clear(cc);
    await userEvent.type(cc, 'Boss <boss@customer.test>');
    await userEvent.type(screen.getByLabelText('Bcc'), 'audit@acme.test');
    const subject = screen.getByLabelText('Subject');
    await userEvent.clear(subject);
    await userEvent.type(subject, 'Your replacement widget');
    expect(
      screen.getByText('A subject of its own starts a new thread in the customer’s mail.'),
    ).toBeInTheDocument();

    fireEvent.change(screen.getByTestId('email-attachment-input'), {
      target: { files: [new File(['%PDF'], 'label.pdf', { type: 'application/pdf' })] },
    });
    const chips = await screen.findByRole('list', { name: 'Files to send' });
    await waitFor(() => expect(within(chips).queryByLabelText('Uploading…')).toBeNull());
    expect(uploads).toEqual(['chat_media']);

    await userEvent.click(screen.getByRole('button', { name: 'Send email' }));
    await waitFor(() => expect(sends).toHaveLength(1));
    expect(sends[0]).toEqual({
      message_type: 'text',
      content: 'Sorry about that!',
      html: '<p><strong>Sorry</strong> about that!</p>',
      cc: ['boss@customer.test'],
      bcc: ['audit@acme.test'],
      subject: 'Your replacement widget',
      attachment_ids: ['chat_media/1/upload-1'],
    });
    // The editor is emptied for the next reply, and the sent reply shows in the conversation.
    await waitFor(() => expect(editor).toHaveTextContent(''));
    expect(await screen.findByText('Sorry')).toBeInTheDocument();
  });

  it('says why a reply was refused', async () => {
    const reason = 'Not sent: dana@customer.test is on the suppression list (hard_bounce).';
    const { sends } = openEmail({ refuse: reason });
    const editor = await screen.findByRole('textbox', { name: 'Email body' });
    await userEvent.click(editor);
    await userEvent.keyboard('Hello');
    await userEvent.keyboard('{Control>}{Enter}{/Control}');
    await waitFor(() => expect(sends).toHaveLength(1));
    expect(sends[0]).toMatchObject({ content: 'Hello', html: '<p>Hello</p>' });
    expect(sends[0]).not.toHaveProperty('subject');
    expect(await screen.findByText(reason)).toBeInTheDocument();
  });
});

describe('quoted history in email HTML', () => {
  it('folds the markers mail clients write, and keeps a mail with nothing quoted whole', () => {
    const outlook = emailHtml(
      '<p>Thanks</p><hr><div id="divRplyFwdMsg"><b>From:</b> Acme</div><div>Old text</div>',
    );
    expect(outlook.folded).toBe(true);
    expect(outlook.visible).toContain('Thanks');
    expect(outlook.visible).not.toContain('Old text');
    const apple = emailHtml(
      '<div>Yes please</div><div>On 2 Nov, Acme wrote:</div><blockquote type="cite">Offer</blockquote>',
    );
    expect(apple.visible).not.toContain('Offer');
    expect(apple.visible).not.toContain('wrote:');
    const plain = emailHtml(
      '<p>Just this <a href="https://x.test">link</a> <img src="https://t.test/p.gif"></p>',
    );
    expect(plain.folded).toBe(false);
    expect(plain.visible).toContain('target="_blank"');
    expect(plain.visible).not.toContain('t.test');
    const onlyQuote = emailHtml('<blockquote>All quoted</blockquote>');
    expect(onlyQuote).toMatchObject({ folded: false });
    expect(onlyQuote.visible).toContain('All quoted');
  });
});
