import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';

import { ok } from '../../../test/api';
import { fakeRealtime } from '../../../test/realtime';
import { renderApp } from '../../../test/render-app';
import { server } from '../../../test/server';
import { chatApi, chatGroup } from './fixtures';

const ORIGIN = window.location.origin;
const SUPPORT = chatGroup({
  id: 3,
  name: 'Support',
  slug: 'support',
  greeting: 'Hi there!',
  color: '#1f6feb',
  visitor_form: [{ name: 'company', label: 'Company', type: 'text', required: true }],
});
const VERIFIED = { allowed_origins: [], identity_verification: true, identity_secret: 'first-secret-0001' };

describe('business embed settings', () => {
  it('gives the business-wide snippet, without data-group', async () => {
    chatApi({ groups: [SUPPORT] });
    renderApp('/messages/settings/embed/b/ACME1234/');

    expect(await screen.findByRole('heading', { name: 'Embed settings', level: 1 })).toBeInTheDocument();
    expect(await screen.findByLabelText('Embed code')).toHaveTextContent(
      `<script async src="${ORIGIN}/widget.js" data-business="ACME1234"></script>`,
    );
    expect(await screen.findByRole('link', { name: 'Embed settings of Support' })).toHaveAttribute(
      'href',
      '/messages/settings/embed/g/support/',
    );
  });

  it('saves the allowed origins', async () => {
    const { calls } = chatApi();
    renderApp('/messages/settings/embed/b/ACME1234/');

    const form = await screen.findByRole('form', { name: 'Allowed origins' });
    await userEvent.type(within(form).getByLabelText('Origin to allow'), 'ftp://files.example.com{Enter}');
    expect(
      within(form).getByText('Enter an origin like https://www.example.com (no path).'),
    ).toBeInTheDocument();
    await userEvent.clear(within(form).getByLabelText('Origin to allow'));
    await userEvent.type(
      within(form).getByLabelText('Origin to allow'),
      'https://www.example.com:8443{Enter}',
    );
    await userEvent.click(within(form).getByRole('button', { name: 'Save changes' }));

    expect(await screen.findByText('Allowed origins saved')).toBeInTheDocument();
    expect(calls).toEqual([
      {
        method: 'PUT',
        path: '/api/msg/widget-settings/',
        body: { allowed_origins: ['https://www.example.com:8443'] },
      },
    ]);
  });

  it('adds an origin typed but not added when saving, instead of dropping it', async () => {
    const { calls } = chatApi();
    renderApp('/messages/settings/embed/b/ACME1234/');

    const form = await screen.findByRole('form', { name: 'Allowed origins' });
    await userEvent.type(within(form).getByLabelText('Origin to allow'), 'https://shop.example.com/');
    await userEvent.click(within(form).getByRole('button', { name: 'Save changes' }));

    expect(await screen.findByText('Allowed origins saved')).toBeInTheDocument();
    expect(calls).toEqual([
      {
        method: 'PUT',
        path: '/api/msg/widget-settings/',
        body: { allowed_origins: ['https://shop.example.com'] },
      },
    ]);
    expect(within(form).getByLabelText('Origin to allow')).toHaveValue('');
  });

  it('refuses to save with a typed origin that is not valid, naming the field', async () => {
    const { calls } = chatApi();
    renderApp('/messages/settings/embed/b/ACME1234/');

    const form = await screen.findByRole('form', { name: 'Allowed origins' });
    await userEvent.type(within(form).getByLabelText('Origin to allow'), 'www.example.com/shop');
    await userEvent.click(within(form).getByRole('button', { name: 'Save changes' }));

    expect(await within(form).findByRole('alert')).toHaveTextContent(
      /^Origin to allow: .+ Fix it or clear the field, then save again\.$/,
    );
    expect(within(form).getByLabelText('Origin to allow')).toHaveValue('www.example.com/shop');
    expect(within(form).getByLabelText('Origin to allow')).toHaveFocus();
    expect(calls).toEqual([]);
  });

  it('turns identity verification on and shows how to sign user ids', async () => {
    const { calls } = chatApi();
    renderApp('/messages/settings/embed/b/ACME1234/');

    expect(await screen.findByText(/Identity verification is off/)).toBeInTheDocument();
    expect(screen.queryByLabelText('Server-side signing example')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Turn on identity verification' }));

    expect(await screen.findByLabelText('Server-side signing example')).toHaveTextContent(
      "createHmac('sha256', process.env.TITAN_IDENTITY_SECRET)",
    );
    expect(screen.getByLabelText('Identify call example')).toHaveTextContent("TitanChat('identify'");
    expect(calls).toEqual([
      { method: 'PUT', path: '/api/msg/widget-settings/', body: { identity_verification: true } },
    ]);
  });

  it('hides the secret until revealed, and rotates it only after a warning', async () => {
    const { calls } = chatApi({ settings: VERIFIED });
    renderApp('/messages/settings/embed/b/ACME1234/');

    const secret = await screen.findByLabelText('Identity secret');
    expect(secret).not.toHaveTextContent('first-secret-0001');
    await userEvent.click(screen.getByRole('button', { name: 'Reveal the secret' }));
    expect(secret).toHaveTextContent('first-secret-0001');

    await userEvent.click(screen.getByRole('button', { name: 'Rotate secret' }));
    let dialog = await screen.findByRole('alertdialog', { name: 'Rotate the identity secret?' });
    expect(dialog).toHaveTextContent('Rotating breaks existing site signatures');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(calls).toEqual([]);

    await userEvent.click(screen.getByRole('button', { name: 'Rotate secret' }));
    dialog = await screen.findByRole('alertdialog', { name: 'Rotate the identity secret?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Rotate secret' }));

    expect(await screen.findByText('A new identity secret is in place.')).toBeInTheDocument();
    expect(screen.getByLabelText('Identity secret')).toHaveTextContent('rotated-secret-0002');
    expect(calls).toEqual([{ method: 'POST', path: '/api/msg/widget-settings/rotate-secret/', body: null }]);
  });

  it('turns identity verification off only after a warning', async () => {
    const { calls } = chatApi({ settings: VERIFIED });
    renderApp('/messages/settings/embed/b/ACME1234/');

    await userEvent.click(await screen.findByRole('button', { name: 'Turn off identity verification' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Turn off identity verification?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Turn off' }));

    expect(await screen.findByText(/Identity verification is off:/)).toBeInTheDocument();
    expect(screen.queryByLabelText('Identity secret')).not.toBeInTheDocument();
    expect(calls).toEqual([
      { method: 'PUT', path: '/api/msg/widget-settings/', body: { identity_verification: false } },
    ]);
  });

  it('does not show another business’s settings under this one', async () => {
    chatApi();
    renderApp('/messages/settings/embed/b/OTHER999/');
    expect(await screen.findByText(/belong to another business/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Open the current business’s embed settings' })).toHaveAttribute(
      'href',
      '/messages/settings/embed/b/ACME1234/',
    );
    expect(screen.queryByLabelText('Embed code')).not.toBeInTheDocument();
  });

  it('tells a role without team.manage that it cannot manage embedding', async () => {
    chatApi({ role: 'agent' });
    renderApp('/messages/settings/embed/b/ACME1234/');
    expect(await screen.findByText('Only owners and admins can manage embed settings.')).toBeInTheDocument();
    expect(screen.queryByLabelText('Embed code')).not.toBeInTheDocument();
  });
});

describe('group embed settings', () => {
  it('gives the group’s snippet with data-group and links its hosted chat page', async () => {
    chatApi({ groups: [SUPPORT] });
    renderApp('/messages/settings/embed/g/support/');

    expect(
      await screen.findByRole('heading', { name: 'Embed settings: Support', level: 1 }),
    ).toBeInTheDocument();
    expect(screen.getByLabelText('Embed code')).toHaveTextContent(
      `<script async src="${ORIGIN}/widget.js" data-business="ACME1234" data-group="support"></script>`,
    );
    const hosted = screen.getByRole('link', { name: 'Open hosted chat page' });
    expect(hosted).toHaveAttribute('href', '/messages/chat/ACME1234/g/support');
    expect(hosted).toHaveAttribute('target', '_blank');
  });

  it('previews unsaved colour, greeting, position and form, then saves only what it edits', async () => {
    const { calls } = chatApi({ groups: [SUPPORT] });
    renderApp('/messages/settings/embed/g/support/');

    const preview = await screen.findByRole('region', { name: 'Widget preview' });
    expect(preview).toHaveTextContent('Hi there!');
    expect(within(preview).getByLabelText('Company *')).toBeInTheDocument();
    const launcher = within(preview).getByRole('button', { name: 'Close the preview chat' });
    expect(launcher).toHaveStyle({ backgroundColor: '#1f6feb' });
    expect(launcher).toHaveClass('right-4');

    const form = screen.getByRole('form', { name: 'Chat group' });
    const greeting = within(form).getByLabelText('Greeting');
    await userEvent.clear(greeting);
    await userEvent.type(greeting, 'Welcome to Acme');
    const hex = within(form).getByLabelText('Colour (hex)');
    await userEvent.clear(hex);
    await userEvent.type(hex, '#fde047');
    await userEvent.click(within(form).getByLabelText('Bottom left'));
    await userEvent.click(within(form).getByRole('button', { name: 'Add field' }));
    await userEvent.type(
      within(screen.getByRole('group', { name: 'Field 2' })).getByLabelText('Label'),
      'Email',
    );
    await userEvent.selectOptions(
      within(screen.getByRole('group', { name: 'Field 2' })).getByLabelText('Type'),
      'email',
    );

    expect(preview).toHaveTextContent('Welcome to Acme');
    expect(within(preview).getByLabelText('Email')).toHaveAttribute('type', 'email');
    expect(launcher).toHaveStyle({ backgroundColor: '#fde047', color: '#111827' });
    expect(launcher).toHaveClass('left-4');
    expect(calls).toEqual([]);

    await userEvent.click(within(form).getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Changes saved')).toBeInTheDocument();
    expect(calls).toEqual([
      {
        method: 'PUT',
        path: '/api/msg/chat-groups/3/',
        body: {
          color: '#fde047',
          greeting: 'Welcome to Acme',
          launcher_position: 'left',
          allowed_origins: [],
          visitor_form: [
            { name: 'company', label: 'Company', type: 'text', required: true },
            { name: 'email', label: 'Email', type: 'email', required: false },
          ],
        },
      },
    ]);
  });

  it('adds an origin typed but not added when saving the group’s widget, instead of dropping it', async () => {
    const { calls } = chatApi({ groups: [SUPPORT] });
    renderApp('/messages/settings/embed/g/support/');

    const form = await screen.findByRole('form', { name: 'Chat group' });
    await userEvent.type(within(form).getByLabelText('Origin to allow'), 'https://shop.example.com/');
    // Typing alone makes the form savable: the typed origin is a change.
    await userEvent.click(within(form).getByRole('button', { name: 'Save changes' }));

    expect(await screen.findByText('Changes saved')).toBeInTheDocument();
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({
      method: 'PUT',
      path: '/api/msg/chat-groups/3/',
      body: { allowed_origins: ['https://shop.example.com'] },
    });
    expect(within(form).getByLabelText('Origin to allow')).toHaveValue('');
    expect(within(form).getByRole('list', { name: 'Allowed origins' })).toHaveTextContent(
      'https://shop.example.com',
    );
  });

  it('refuses to save the group’s widget with a typed origin that is not valid, naming the field', async () => {
    const { calls } = chatApi({ groups: [SUPPORT] });
    renderApp('/messages/settings/embed/g/support/');

    const form = await screen.findByRole('form', { name: 'Chat group' });
    await userEvent.type(within(form).getByLabelText('Origin to allow'), 'www.example.com/shop');
    await userEvent.click(within(form).getByRole('button', { name: 'Save changes' }));

    expect(await within(form).findByRole('alert')).toHaveTextContent(
      /^Origin to allow: .+ Fix it or clear the field, then save again\.$/,
    );
    expect(within(form).getByLabelText('Origin to allow')).toHaveValue('www.example.com/shop');
    expect(within(form).getByLabelText('Origin to allow')).toHaveFocus();
    expect(calls).toEqual([]);
  });

  it('shows the identity example when verification is on for the business', async () => {
    chatApi({ groups: [SUPPORT], settings: VERIFIED });
    renderApp('/messages/settings/embed/g/support/');
    expect(await screen.findByLabelText('Server-side signing example')).toBeInTheDocument();
    // The secret itself is managed business-wide, not here.
    expect(screen.queryByLabelText('Identity secret')).not.toBeInTheDocument();
  });

  it('says when no group has the slug', async () => {
    chatApi({ groups: [SUPPORT] });
    renderApp('/messages/settings/embed/g/nope/');
    expect(await screen.findByText('No chat group of this business has this slug.')).toBeInTheDocument();
  });
});

describe('the inbox header', () => {
  function inbox(role: 'owner' | 'agent') {
    chatApi({ role });
    server.use(
      http.get('/api/msg/conversations/', () => ok({ count: 0, next: null, previous: null, results: [] })),
    );
    fakeRealtime();
  }

  it('links managers to the embed settings', async () => {
    inbox('owner');
    renderApp('/messages');
    expect(await screen.findByRole('link', { name: 'Embed settings' })).toHaveAttribute(
      'href',
      '/messages/settings/embed/b/ACME1234/',
    );
  });

  it('shows agents no embed settings link', async () => {
    inbox('agent');
    renderApp('/messages');
    expect(await screen.findByText('No conversations found')).toBeInTheDocument();
    // Wait for the roles to arrive, so the link would have had its chance to appear.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(screen.queryByRole('link', { name: 'Embed settings' })).not.toBeInTheDocument();
  });
});
