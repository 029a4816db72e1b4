// Connects the business's WhatsApp number, or updates it. The access token and app secret are
// write-only: required to connect; once stored, leaving them empty keeps them. Server field errors land
// on their fields.
import { zodResolver } from '@hookform/resolvers/zod';
import {
  ZSaveWhatsappAccountRequest,
  type TSaveWhatsappAccountRequest,
  type TWhatsappAccount,
} from '@titan/contracts';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';

import { useUnsavedChanges } from '../../../components/unsaved-changes';
import { FormAlert } from '../../../components/form/form-alert';
import { TextField } from '../../../components/form/text-field';
import { Button } from '../../../components/ui/button';
import { applyApiErrorToForm } from '../../../lib/api-errors';
import { useSaveWhatsappAccount } from '../api/save-whatsapp-account';
import { numericOnlyInputProps } from '../../../lib/numeric-input';
import { WHATSAPP_STRINGS } from '../strings';

const S = WHATSAPP_STRINGS.settings;
const FIELDS = [
  'phone_number_id',
  'waba_id',
  'display_phone_number',
  'verify_token',
  'access_token',
  'app_secret',
] as const;
const CONNECT_SCHEMA = ZSaveWhatsappAccountRequest.required({ access_token: true, app_secret: true });
const VERIFY_TOKEN_BYTES = 24;

/** An empty secret is left out of the request, which keeps the stored one. */
const emptyToUndefined = (value: unknown) =>
  typeof value === 'string' && value.trim() === '' ? undefined : value;

/** A random verify token (getRandomValues works outside secure contexts too, unlike randomUUID). */
function randomToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(VERIFY_TOKEN_BYTES));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

export function WhatsappAccountForm({ account }: { account: TWhatsappAccount | null }) {
  const form = useForm<TSaveWhatsappAccountRequest>({
    resolver: zodResolver(account ? ZSaveWhatsappAccountRequest : CONNECT_SCHEMA),
    defaultValues: {
      phone_number_id: account?.phone_number_id ?? '',
      waba_id: account?.waba_id ?? '',
      display_phone_number: account?.display_phone_number ?? '',
      verify_token: account?.verify_token ?? '',
    },
  });
  const save = useSaveWhatsappAccount();
  const { errors, isSubmitting } = form.formState;
  const unsaved = useUnsavedChanges(form.formState.isDirty);

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const saved = await save.mutateAsync(values);
      toast.success(account ? S.saved : S.connected);
      // The stored secrets are never shown again: their boxes empty.
      form.reset({
        phone_number_id: saved.phone_number_id,
        waba_id: saved.waba_id,
        display_phone_number: saved.display_phone_number,
        verify_token: saved.verify_token,
      });
    } catch (error) {
      applyApiErrorToForm(form, FIELDS, error);
    }
  });

  const secretPlaceholder = (stored: boolean | undefined) => (stored ? S.stored : undefined);
  return (
    <form
      noValidate
      aria-label={S.title}
      onSubmit={(event) => void onSubmit(event)}
      className="grid max-w-xl gap-4"
    >
      {unsaved.dialog}
      <FormAlert message={errors.root?.server?.message} />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label={S.phoneNumberId}
          {...numericOnlyInputProps}
          autoComplete="off"
          hint={S.phoneNumberIdHint}
          registration={form.register('phone_number_id')}
          error={errors.phone_number_id?.message}
        />
        <TextField
          label={S.wabaId}
          {...numericOnlyInputProps}
          autoComplete="off"
          registration={form.register('waba_id')}
          error={errors.waba_id?.message}
        />
      </div>
      <TextField
        label={S.displayPhoneNumber}
        type="tel"
        hint={S.displayPhoneNumberHint}
        registration={form.register('display_phone_number')}
        error={errors.display_phone_number?.message}
      />
      <div className="grid grid-cols-[1fr_auto] items-start gap-2">
        <TextField
          label={S.verifyToken}
          autoComplete="off"
          hint={S.verifyTokenHint}
          registration={form.register('verify_token')}
          error={errors.verify_token?.message}
        />
        <Button
          type="button"
          variant="outline"
          aria-label={S.generateLabel}
          className="mt-[1.375rem]"
          onClick={() =>
            form.setValue('verify_token', randomToken(), { shouldDirty: true, shouldValidate: true })
          }
        >
          {S.generate}
        </Button>
      </div>
      <TextField
        label={S.accessToken}
        type="password"
        autoComplete="new-password"
        placeholder={secretPlaceholder(account?.has_access_token)}
        hint={S.accessTokenHint}
        registration={form.register('access_token', { setValueAs: emptyToUndefined })}
        error={errors.access_token?.message}
      />
      <TextField
        label={S.appSecret}
        type="password"
        autoComplete="new-password"
        placeholder={secretPlaceholder(account?.has_app_secret)}
        hint={S.appSecretHint}
        registration={form.register('app_secret', { setValueAs: emptyToUndefined })}
        error={errors.app_secret?.message}
      />
      <div>
        <Button type="submit" disabled={isSubmitting}>
          {account ? (isSubmitting ? S.saving : S.save) : isSubmitting ? S.connecting : S.connect}
        </Button>
      </div>
    </form>
  );
}
