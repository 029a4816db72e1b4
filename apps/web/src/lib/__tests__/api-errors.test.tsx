import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { delay, http } from 'msw';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { describe, expect, it, vi } from 'vitest';

import { AppProviders } from '../../test/render-app';
import { FormAlert } from '../../components/form/form-alert';
import { TextField } from '../../components/form/text-field';
import { useBlockerModalStore } from '../../stores/blocker-modal';
import { fail, ok, signIn } from '../../test/api';
import { server } from '../../test/server';
import { publicClient } from '../api-client';
import { apiErrorMessage, applyApiErrorToForm, reportApiError } from '../api-errors';
import { protectedClient } from '../protected-client';

const SAVE_PATH = '/api/things/';
const FIELDS = ['name', 'email'] as const;

/** A two-field form that posts to SAVE_PATH and puts the server's errors on itself. */
function ThingForm({ client = publicClient }: { client?: typeof publicClient }) {
  const form = useForm<{ name: string; email: string }>({ defaultValues: { name: '', email: '' } });
  const { errors } = form.formState;
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await client.post(SAVE_PATH, values);
    } catch (error) {
      applyApiErrorToForm(form, FIELDS, error);
    }
  });
  return (
    <form onSubmit={(event) => void onSubmit(event)}>
      <FormAlert message={errors.root?.server?.message} />
      <TextField label="Name" registration={form.register('name')} error={errors.name?.message} />
      <TextField label="Email" registration={form.register('email')} error={errors.email?.message} />
      <button type="submit">Save</button>
    </form>
  );
}

function renderForm(client?: typeof publicClient) {
  render(
    <AppProviders>
      <ThingForm client={client} />
    </AppProviders>,
  );
}

const submit = () => userEvent.click(screen.getByRole('button', { name: 'Save' }));

describe('server errors on a form', () => {
  it('puts the first message of each field error on its field and focuses it; unknown fields are ignored', async () => {
    const toastError = vi.spyOn(toast, 'error');
    server.use(
      http.post(SAVE_PATH, () =>
        fail(400, 'Invalid input.', {
          email: ['A user with that email already exists.', 'Second message.'],
          nickname: ['Nickname is taken.'],
        }),
      ),
    );
    renderForm();
    await submit();

    const email = screen.getByLabelText('Email');
    await waitFor(() => expect(email).toHaveAccessibleDescription('A user with that email already exists.'));
    expect(email).toHaveFocus();
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('Name')).not.toHaveAttribute('aria-invalid');
    expect(screen.queryByText('Second message.')).not.toBeInTheDocument();
    expect(screen.queryByText('Nickname is taken.')).not.toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(toastError).not.toHaveBeenCalled();
  });

  it('focuses the first field of the form that has an error', async () => {
    server.use(
      http.post(SAVE_PATH, () => fail(400, 'Invalid input.', { email: ['Bad email.'], name: ['Bad name.'] })),
    );
    renderForm();
    await submit();

    await waitFor(() => expect(screen.getByLabelText('Name')).toHaveFocus());
    expect(screen.getByLabelText('Email')).toHaveAccessibleDescription('Bad email.');
  });

  it('shows non_field_errors as a form-level alert', async () => {
    server.use(
      http.post(SAVE_PATH, () =>
        fail(400, 'Unable to log in with provided credentials.', {
          non_field_errors: ['Unable to log in with provided credentials.'],
        }),
      ),
    );
    renderForm();
    await submit();

    expect(await screen.findByRole('alert')).toHaveTextContent('Unable to log in with provided credentials.');
  });

  it('toasts "Something went wrong" when the errors cannot be mapped to fields', async () => {
    server.use(http.post(SAVE_PATH, () => fail(400, 'Invalid input.', 'not a field map')));
    renderForm();
    await submit();

    expect(await screen.findByText('Something went wrong')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('shows the timeout text when the server takes longer than 5000 ms', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      server.use(
        http.post(SAVE_PATH, async () => {
          await delay('infinite');
          return ok(null);
        }),
      );
      renderForm();
      await submit();
      await vi.advanceTimersByTimeAsync(4900);
      expect(screen.queryByRole('alert')).not.toBeInTheDocument();
      await vi.advanceTimersByTimeAsync(200);

      expect(await screen.findByRole('alert')).toHaveTextContent(
        'That took longer than expected — wanna try again?',
      );
    } finally {
      vi.useRealTimers();
    }
  });

  it('opens the blocker modal on 402 with the dialog, and puts nothing on the form', async () => {
    signIn();
    server.use(
      http.post(SAVE_PATH, () =>
        fail(402, 'Payment required.', {
          dialog: {
            title: 'Upgrade to keep sending',
            description: 'Your plan has used all of its messages.',
          },
        }),
      ),
    );
    renderForm(protectedClient);
    await submit();

    const dialog = await screen.findByRole('dialog', { name: 'Upgrade to keep sending' });
    expect(dialog).toHaveAccessibleDescription('Your plan has used all of its messages.');
    expect(useBlockerModalStore.getState()).toMatchObject({ open: true, title: 'Upgrade to keep sending' });
    expect(screen.getByLabelText('Name')).not.toHaveAttribute('aria-invalid');

    await userEvent.click(screen.getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });
});

describe('errors without a form', () => {
  it('go to the console only, unless the caller opts into a toast', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    const toastError = vi.spyOn(toast, 'error');
    server.use(http.get(SAVE_PATH, () => fail(409, 'The last owner cannot be removed.')));
    const error: unknown = await publicClient.get(SAVE_PATH).catch((failure: unknown) => failure);

    reportApiError(error);
    expect(consoleError).toHaveBeenCalledWith('The last owner cannot be removed.', error);
    expect(toastError).not.toHaveBeenCalled();

    reportApiError(error, { toast: true });
    expect(toastError).toHaveBeenCalledWith('The last owner cannot be removed.');
  });

  it("leave an empty server message to the caller's own fallback, and the generic text otherwise", async () => {
    server.use(http.get(SAVE_PATH, () => fail(400, '')));
    const error: unknown = await publicClient.get(SAVE_PATH).catch((failure: unknown) => failure);
    expect(apiErrorMessage(error, 'Unable to upload file')).toBe('Unable to upload file');
    expect(apiErrorMessage(error)).toBe('Something went wrong');

    server.use(http.get(SAVE_PATH, () => fail(400, '  ')));
    const blank: unknown = await publicClient.get(SAVE_PATH).catch((failure: unknown) => failure);
    expect(apiErrorMessage(blank, 'Unable to upload file')).toBe('Unable to upload file');
  });
});
