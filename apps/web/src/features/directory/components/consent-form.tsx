// Staff set a visitor's consent per channel (engage.write): PUT customer-directory/{id}/ with the
// channels changed; the server keeps the suppression list in step (a channel set to anything but
// subscribed or unknown suppresses the address, subscribed lifts it). `pending` is never chosen
// by staff: only a double opt-in list's request sets it, and the customer's confirmation ends it.
import { STAFF_CONSENT_STATUSES, type TConsentStatus, type TDirectoryVisitor } from '@titan/contracts';
import { useState } from 'react';
import { toast } from 'sonner';

import { FormAlert } from '../../../components/form/form-alert';
import { Button } from '../../../components/ui/button';
import { Label } from '../../../components/ui/label';
import { NativeSelect } from '../../../components/ui/native-select';
import { apiErrorMessage, describeApiFailure, isHandledApiError } from '../../../lib/api-errors';
import { useUpdateVisitor } from '../api/update-visitor';
import { DIRECTORY_STRINGS as S } from '../strings';
import { CONSENT_CHANNELS_SHOWN, type TConsentChannelShown } from '../utils/consent';

type TConsent = Record<TConsentChannelShown, TConsentStatus>;

const consentOf = (v: TDirectoryVisitor): TConsent => ({
  email: v.email_status,
  sms: v.sms_status,
  whatsapp: v.whatsapp_status,
});

export function ConsentForm({ visitor }: { visitor: TDirectoryVisitor }) {
  const saved = consentOf(visitor);
  const [consent, setConsent] = useState<TConsent>(saved);
  const [error, setError] = useState<string | undefined>();
  const update = useUpdateVisitor();
  const changed = CONSENT_CHANNELS_SHOWN.filter((c) => consent[c] !== saved[c]);

  const onSubmit = async (event: React.FormEvent) => {
    event.preventDefault();
    setError(undefined);
    if (changed.length === 0) return setError(S.consentUnchanged);
    try {
      await update.mutateAsync({
        id: visitor.id,
        ...Object.fromEntries(changed.map((c) => [`${c}_status`, consent[c]])),
      });
      toast.success(S.consentSaved);
    } catch (err) {
      if (isHandledApiError(err)) return;
      const failure = describeApiFailure(err);
      const fieldMessage =
        failure.kind === 'response' ? Object.values(failure.fieldErrors ?? {}).flat()[0] : undefined;
      setError(fieldMessage ?? apiErrorMessage(err));
    }
  };

  return (
    <form
      noValidate
      aria-label={S.consentForm}
      onSubmit={(e) => void onSubmit(e)}
      className="grid max-w-md gap-4"
    >
      <FormAlert message={error} />
      {CONSENT_CHANNELS_SHOWN.map((channel) => (
        <div key={channel} className="grid gap-1.5">
          <Label htmlFor={`consent-${channel}`}>{S.consentChannels[channel]}</Label>
          <NativeSelect
            id={`consent-${channel}`}
            value={consent[channel]}
            onChange={(e) => setConsent({ ...consent, [channel]: e.target.value as TConsentStatus })}
          >
            {/* Pending is the customer's to end (the confirmation link or a YES): shown, not chosen. */}
            {saved[channel] === 'pending' ? (
              <option value="pending" disabled>
                {S.consentStatuses.pending}
              </option>
            ) : null}
            {STAFF_CONSENT_STATUSES.map((status) => (
              <option key={status} value={status}>
                {S.consentStatuses[status]}
              </option>
            ))}
          </NativeSelect>
        </div>
      ))}
      <div>
        <Button type="submit" disabled={update.isPending}>
          {update.isPending ? S.saving : S.consentSave}
        </Button>
      </div>
    </form>
  );
}
