// Connects the business's Twilio account, or updates it. Titan checks the credentials with Twilio
// before keeping them. The Auth Token and API key secret are write-only: required to connect; once
// stored, leaving them empty keeps them. Server field errors land on their fields.
import { zodResolver } from '@hookform/resolvers/zod';
import {
  SMS_ERRORS,
  ZSaveSmsAccountRequest,
  type TSaveSmsAccountRequest,
  type TSmsAccount,
} from '@titan/contracts';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';

import { useUnsavedChanges } from '../../../components/unsaved-changes';
import { FormAlert } from '../../../components/form/form-alert';
import { TextField } from '../../../components/form/text-field';
import { Label } from '../../../components/ui/label';
import { NativeSelect } from '../../../components/ui/native-select';
import { Button } from '../../../components/ui/button';
import { applyApiErrorToForm } from '../../../lib/api-errors';
import { useSaveSmsAccount } from '../api/save-sms-account';
import { SMS_STRINGS } from '../strings';

const S = SMS_STRINGS.settings;
const FIELDS = [
  'account_sid',
  'auth_token',
  'from_number',
  'messaging_service_sid',
  'api_key_sid',
  'api_key_secret',
] as const;
type TSender = 'number' | 'service';

/** An empty box is left out of the request (a secret: keep the stored one). */
const emptyToUndefined = (value: unknown) =>
  typeof value === 'string' && value.trim() === '' ? undefined : value;

export function SmsAccountForm({ account }: { account: TSmsAccount | null }) {
  const [sender, setSender] = useState<TSender>(account?.messaging_service_sid ? 'service' : 'number');
  const form = useForm<TSaveSmsAccountRequest>({
    resolver: zodResolver(ZSaveSmsAccountRequest),
    defaultValues: {
      account_sid: account?.account_sid ?? '',
      from_number: account?.from_number ?? undefined,
      messaging_service_sid: account?.messaging_service_sid ?? undefined,
      api_key_sid: account?.api_key_sid ?? undefined,
    },
  });
  const save = useSaveSmsAccount();
  const { errors, isSubmitting } = form.formState;
  const unsaved = useUnsavedChanges(form.formState.isDirty);

  const chooseSender = (next: TSender) => {
    setSender(next);
    // Only the chosen sender is sent.
    form.setValue(next === 'number' ? 'messaging_service_sid' : 'from_number', undefined);
    form.clearErrors(['from_number', 'messaging_service_sid']);
  };

  const onSubmit = form.handleSubmit(async (values) => {
    if (!account && !values.auth_token) {
      form.setError('auth_token', { message: SMS_ERRORS.authToken }, { shouldFocus: true });
      return;
    }
    try {
      const saved = await save.mutateAsync({ ...values, api_key_sid: values.api_key_sid ?? null });
      toast.success(account ? S.saved : S.connected);
      // The stored secrets are never shown again: their boxes empty.
      form.reset({
        account_sid: saved.account_sid,
        from_number: saved.from_number ?? undefined,
        messaging_service_sid: saved.messaging_service_sid ?? undefined,
        api_key_sid: saved.api_key_sid ?? undefined,
      });
    } catch (error) {
      applyApiErrorToForm(form, FIELDS, error);
    }
  });

  const stored = (has: boolean | undefined) => (has ? S.stored : undefined);
  return (
    <form
      noValidate
      aria-label={S.title}
      onSubmit={(event) => void onSubmit(event)}
      className="grid max-w-xl gap-4"
    >
      {unsaved.dialog}
      <FormAlert message={errors.root?.server?.message} />
      <TextField
        label={S.accountSid}
        autoComplete="off"
        spellCheck={false}
        hint={S.accountSidHint}
        registration={form.register('account_sid')}
        error={errors.account_sid?.message}
      />
      <TextField
        label={S.authToken}
        type="password"
        autoComplete="new-password"
        placeholder={stored(account?.has_auth_token)}
        hint={S.authTokenHint}
        registration={form.register('auth_token', { setValueAs: emptyToUndefined })}
        error={errors.auth_token?.message}
      />
      <div className="grid gap-2">
        <Label htmlFor="sms-sender">{S.sendFrom}</Label>
        <NativeSelect
          id="sms-sender"
          value={sender}
          onChange={(e) => chooseSender(e.target.value as TSender)}
        >
          <option value="number">{S.sendFromOptions.number}</option>
          <option value="service">{S.sendFromOptions.service}</option>
        </NativeSelect>
      </div>
      {sender === 'number' ? (
        <TextField
          label={S.fromNumber}
          type="tel"
          autoComplete="off"
          hint={S.fromNumberHint}
          registration={form.register('from_number', { setValueAs: emptyToUndefined })}
          error={errors.from_number?.message}
        />
      ) : (
        <TextField
          label={S.messagingServiceSid}
          autoComplete="off"
          spellCheck={false}
          hint={S.messagingServiceSidHint}
          registration={form.register('messaging_service_sid', { setValueAs: emptyToUndefined })}
          error={errors.messaging_service_sid?.message}
        />
      )}
      <div className="grid items-start gap-4 sm:grid-cols-2">
        <TextField
          label={`${S.apiKeySid} ${S.optional}`}
          autoComplete="off"
          spellCheck={false}
          hint={S.apiKeySidHint}
          registration={form.register('api_key_sid', { setValueAs: emptyToUndefined })}
          error={errors.api_key_sid?.message}
        />
        <TextField
          label={`${S.apiKeySecret} ${S.optional}`}
          type="password"
          autoComplete="new-password"
          placeholder={stored(account?.has_api_key_secret)}
          registration={form.register('api_key_secret', { setValueAs: emptyToUndefined })}
          error={errors.api_key_secret?.message}
        />
      </div>
      <div>
        <Button type="submit" disabled={isSubmitting}>
          {account ? (isSubmitting ? S.saving : S.save) : isSubmitting ? S.connecting : S.connect}
        </Button>
      </div>
    </form>
  );
}
