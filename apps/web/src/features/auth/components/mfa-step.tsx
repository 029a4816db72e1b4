// The second step of a sign-in: a code from the authenticator app, a recovery code, or a passkey.
import { useId, useState } from 'react';

import { FormAlert } from '../../../components/form/form-alert';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { apiErrorMessage, describeApiFailure } from '../../../lib/api-errors';
import { useLoginMfa } from '../api/login-mfa';
import { usePasskeySignIn } from '../api/passkey-sign-in';
import { AUTH_STRINGS } from '../strings';
import { useStartSession } from '../utils/use-start-session';

/** The message for a failed second step: the field's own, else the server's or `fallback`. */
function messageOf(error: unknown, fallback: string): string {
  const failure = describeApiFailure(error);
  if (failure.kind === 'response') {
    const field = failure.fieldErrors?.code?.[0] ?? failure.fieldErrors?.recovery_code?.[0];
    if (field) return field;
  }
  return apiErrorMessage(error, fallback) || fallback;
}

export function MfaStep({ mfaToken, next }: { mfaToken: string; next: string | null }) {
  const [recovery, setRecovery] = useState(false);
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const loginMfa = useLoginMfa();
  const passkey = usePasskeySignIn();
  const startSession = useStartSession();
  const inputId = useId();

  return (
    <div className="grid gap-4">
      <div className="grid gap-1">
        <h2 className="text-lg font-semibold">{AUTH_STRINGS.mfaTitle}</h2>
        <p className="text-sm text-muted-foreground">
          {recovery ? AUTH_STRINGS.mfaRecoveryDescription : AUTH_STRINGS.mfaDescription}
        </p>
      </div>
      <form
        noValidate
        className="grid gap-4"
        onSubmit={(event) => {
          event.preventDefault();
          setError(null);
          const body = recovery
            ? { mfa_token: mfaToken, recovery_code: value.trim() }
            : { mfa_token: mfaToken, code: value.trim() };
          loginMfa.mutate(body, {
            onSuccess: (tokens) => startSession(tokens, next),
            onError: (err) => setError(messageOf(err, AUTH_STRINGS.mfaDescription)),
          });
        }}
      >
        <FormAlert message={error ?? undefined} />
        <div className="grid gap-2">
          <Label htmlFor={inputId}>{recovery ? AUTH_STRINGS.mfaRecoveryCode : AUTH_STRINGS.mfaCode}</Label>
          <Input
            id={inputId}
            autoFocus
            autoComplete="one-time-code"
            inputMode={recovery ? 'text' : 'numeric'}
            maxLength={recovery ? 64 : 6}
            value={value}
            onChange={(event) => setValue(event.target.value)}
          />
        </div>
        <Button type="submit" disabled={loginMfa.isPending}>
          {loginMfa.isPending ? AUTH_STRINGS.mfaSubmitting : AUTH_STRINGS.mfaSubmit}
        </Button>
      </form>
      <div className="flex flex-wrap justify-between gap-2">
        <Button
          type="button"
          variant="link"
          className="px-0"
          onClick={() => {
            setRecovery(!recovery);
            setValue('');
            setError(null);
          }}
        >
          {recovery ? AUTH_STRINGS.mfaUseCode : AUTH_STRINGS.mfaUseRecovery}
        </Button>
        <Button
          type="button"
          variant="outline"
          disabled={passkey.isPending}
          onClick={() => {
            setError(null);
            passkey.mutate(mfaToken, {
              onSuccess: (answer) => {
                if (!('mfa_required' in answer)) startSession(answer, next);
              },
              onError: (err) => setError(messageOf(err, AUTH_STRINGS.passkeyFailed)),
            });
          }}
        >
          {passkey.isPending ? AUTH_STRINGS.passkeyWaiting : AUTH_STRINGS.mfaUsePasskey}
        </Button>
      </div>
    </div>
  );
}

/** Password-less sign-in with a passkey this site knows. */
export function PasskeySignInButton({ next }: { next: string | null }) {
  const passkey = usePasskeySignIn();
  const startSession = useStartSession();
  const [error, setError] = useState<string | null>(null);
  return (
    <div className="grid gap-2">
      <FormAlert message={error ?? undefined} />
      <Button
        type="button"
        variant="outline"
        disabled={passkey.isPending}
        onClick={() => {
          setError(null);
          passkey.mutate(undefined, {
            onSuccess: (answer) => {
              if (!('mfa_required' in answer)) startSession(answer, next);
            },
            onError: (err) => setError(messageOf(err, AUTH_STRINGS.passkeyFailed)),
          });
        }}
      >
        {passkey.isPending ? AUTH_STRINGS.passkeyWaiting : AUTH_STRINGS.passkeySignIn}
      </Button>
    </div>
  );
}
