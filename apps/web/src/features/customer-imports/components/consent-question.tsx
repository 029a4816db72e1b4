// The import's consent question: what consent the file's rows carry. "They subscribed" needs the
// proof (where and when they agreed), kept with each customer's consent record, and the channels
// it covers; "Unknown" records nothing and keeps marketing from them until they opt in.
import { IMPORT_CONSENT_CHANNELS } from '@titan/contracts';

import { Label } from '../../../components/ui/label';
import { Textarea } from '../../../components/ui/textarea';
import { IMPORT_STRINGS as S } from '../strings';
import { CONSENT_PROOF_MIN, type TConsentDraft } from '../utils/consent-choice';

export function ConsentQuestion({
  value,
  onChange,
  doubleOptIn,
  onDoubleOptIn,
}: {
  value: TConsentDraft;
  onChange: (value: TConsentDraft) => void;
  /** Unknown consent: ask each person to confirm by email (double opt-in). */
  doubleOptIn: boolean;
  onDoubleOptIn: (on: boolean) => void;
}) {
  const subscribed = value?.kind === 'subscribed' ? value : null;
  const proofShort = subscribed !== null && subscribed.proof.trim().length < CONSENT_PROOF_MIN;
  return (
    <fieldset className="grid gap-2">
      <legend className="mb-1 text-lg font-semibold">{S.consentTitle}</legend>
      {(['subscribed', 'unknown'] as const).map((kind) => (
        <label key={kind} className="flex items-start gap-2 text-sm">
          <input
            type="radio"
            name="import-consent"
            value={kind}
            checked={value?.kind === kind}
            onChange={() =>
              onChange(
                kind === 'unknown'
                  ? { kind }
                  : { kind, proof: subscribed?.proof ?? '', channels: [...IMPORT_CONSENT_CHANNELS] },
              )
            }
            className="mt-1"
          />
          <span>
            <span className="font-medium">{S.consents[kind].label}</span>
            <span className="block text-muted-foreground">{S.consents[kind].hint}</span>
          </span>
        </label>
      ))}
      {value?.kind === 'unknown' ? (
        <div className="flex max-w-xl items-start gap-2 pl-6 text-sm">
          <input
            id="import-double-opt-in"
            type="checkbox"
            className="mt-1"
            checked={doubleOptIn}
            aria-describedby="import-double-opt-in-hint"
            onChange={(event) => onDoubleOptIn(event.target.checked)}
          />
          <span>
            <label htmlFor="import-double-opt-in" className="font-medium">
              {S.doubleOptIn}
            </label>
            <span id="import-double-opt-in-hint" className="block text-muted-foreground">
              {S.doubleOptInHint}
            </span>
          </span>
        </div>
      ) : null}
      {subscribed ? (
        <div className="grid max-w-xl gap-3 pl-6">
          <div className="grid gap-1.5">
            <Label htmlFor="import-consent-proof">{S.consentProofLabel}</Label>
            <Textarea
              id="import-consent-proof"
              value={subscribed.proof}
              placeholder={S.consentProofPlaceholder}
              maxLength={1000}
              rows={2}
              required
              aria-invalid={proofShort || undefined}
              aria-describedby="import-consent-proof-hint"
              onChange={(event) => onChange({ ...subscribed, proof: event.target.value })}
            />
            <p id="import-consent-proof-hint" className="text-xs text-muted-foreground">
              {S.consentProofHint}
            </p>
          </div>
          <fieldset className="flex flex-wrap gap-4 text-sm">
            <legend className="mb-1 text-sm font-medium">{S.consentChannelsLabel}</legend>
            {IMPORT_CONSENT_CHANNELS.map((channel) => (
              <label key={channel} className="flex items-center gap-2">
                <input
                  type="checkbox"
                  checked={subscribed.channels.includes(channel)}
                  onChange={(event) =>
                    onChange({
                      ...subscribed,
                      channels: event.target.checked
                        ? IMPORT_CONSENT_CHANNELS.filter(
                            (c) => c === channel || subscribed.channels.includes(c),
                          )
                        : subscribed.channels.filter((c) => c !== channel),
                    })
                  }
                />
                {S.consentChannels[channel]}
              </label>
            ))}
          </fieldset>
        </div>
      ) : null}
    </fieldset>
  );
}
