// A group's widget language in its embed settings (issue 30): the default locale and per-locale text
// overrides, checked with the contract before sending (ICU syntax, placeholders), the server's 400
// shown on the text it names, and only non-empty overrides sent.
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';

import { fail } from '../../../test/api';
import { renderApp } from '../../../test/render-app';
import { server } from '../../../test/server';
import { chatApi, chatGroup } from './fixtures';

const SUPPORT = chatGroup({ id: 3, locale: 'en', strings: { fr: { send: 'Expédier' } } });

async function languageForm() {
  renderApp('/messages/settings/embed/g/support/');
  const form = await screen.findByRole('form', { name: 'Widget language' });
  // The texts fold away under their summary; open them.
  await userEvent.click(within(form).getByText(/^Texts in English/));
  return form;
}

describe('widget language settings', () => {
  it('shows the built-in text of the locale being edited and the saved overrides', async () => {
    chatApi({ groups: [SUPPORT] });
    const form = await languageForm();
    expect(within(form).getByLabelText('Default language')).toHaveValue('en');
    const texts = within(form).getByLabelText('Texts in');
    await userEvent.selectOptions(texts, 'fr');
    expect(within(form).getByText('Texts in Français (1 changed)')).toBeInTheDocument();
    expect(within(form).getByLabelText('Send (send)')).toHaveValue('Expédier');
    expect(within(form).getByLabelText('Type a message... (placeholder)')).toHaveAttribute(
      'placeholder',
      'Écrivez un message...',
    );
    await userEvent.selectOptions(texts, 'ar');
    expect(within(form).getByTestId('widget-texts')).toHaveAttribute('dir', 'rtl');
    expect(within(form).getByLabelText('Send (send)')).toHaveAttribute('placeholder', 'إرسال');
  });

  it('refuses a broken ICU text and an unknown placeholder before sending', async () => {
    const { calls } = chatApi({ groups: [SUPPORT] });
    const form = await languageForm();
    await userEvent.selectOptions(within(form).getByLabelText('Texts in'), 'es');
    await userEvent.type(within(form).getByLabelText('{name} is typing… (typing)'), '{{who} escribe');
    await userEvent.click(within(form).getByRole('button', { name: 'Save language' }));
    expect(
      await within(form).findByText('Unknown placeholder {who}; this text may use {name}.'),
    ).toBeInTheDocument();
    expect(calls).toEqual([]);
  });

  it('saves the default locale and only the texts that were changed', async () => {
    const { calls } = chatApi({ groups: [SUPPORT] });
    const form = await languageForm();
    await userEvent.selectOptions(within(form).getByLabelText('Default language'), 'es');
    await userEvent.selectOptions(within(form).getByLabelText('Texts in'), 'es');
    await userEvent.type(within(form).getByLabelText('Type a message... (placeholder)'), 'Escríbenos');
    await userEvent.click(within(form).getByRole('button', { name: 'Save language' }));
    expect(await screen.findByText('Language saved')).toBeInTheDocument();
    expect(calls).toEqual([
      {
        method: 'PUT',
        path: '/api/msg/chat-groups/3/',
        body: { locale: 'es', strings: { fr: { send: 'Expédier' }, es: { placeholder: 'Escríbenos' } } },
      },
    ]);
  });

  it('shows the server’s field message on the text it names', async () => {
    chatApi({ groups: [SUPPORT] });
    server.use(
      http.put('/api/msg/chat-groups/:id/', () =>
        fail(400, 'Invalid input.', { 'strings.fr.send': ['Use at most 500 characters.'] }),
      ),
    );
    const form = await languageForm();
    await userEvent.click(within(form).getByRole('button', { name: 'Save language' }));
    await userEvent.selectOptions(within(form).getByLabelText('Texts in'), 'fr');
    expect(await within(form).findByText('Use at most 500 characters.')).toBeInTheDocument();
    expect(within(form).getByLabelText('Send (send)')).toHaveAttribute('aria-invalid', 'true');
  });
});
