// The signed-in user's second factors: an authenticator app (QR to scan, confirmed with a code,
// recovery codes shown once) and passkeys (added through the browser's WebAuthn prompt).
import { MFA_ERRORS, type TPasskey } from '@titan/contracts';
import QRCode from 'qrcode';
import { useEffect, useId, useState } from 'react';
import { toast } from 'sonner';

import { ConfirmAction } from '../../../components/confirm-action';
import { FormAlert } from '../../../components/form/form-alert';
import { SectionError, SectionLoading } from '../../../components/load-state';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { apiErrorMessage, reportApiError } from '../../../lib/api-errors';
import { formatDate, formatDateTime } from '../../../lib/format';
import { useAddPasskey } from '../api/add-passkey';
import { useDeletePasskey } from '../api/delete-passkey';
import { useMfaStatus } from '../api/get-mfa-status';
import { useRegenerateRecoveryCodes } from '../api/regenerate-recovery-codes';
import { useTotpConfirm } from '../api/totp-confirm';
import { useTotpDisable } from '../api/totp-disable';
import { useTotpSetup } from '../api/totp-setup';
import { SETTINGS_STRINGS } from '../strings';

const STRINGS = SETTINGS_STRINGS.security;

function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  return (
    <div className="grid gap-3 rounded-md border p-4" role="region" aria-label={STRINGS.recoveryTitle}>
      <h3 className="font-medium">{STRINGS.recoveryTitle}</h3>
      <p className="text-sm text-muted-foreground">{STRINGS.recoveryText}</p>
      <ul className="grid grid-cols-2 gap-2 font-mono text-sm" data-testid="recovery-codes">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-2">
        <Button
          type="button"
          variant="outline"
          onClick={() =>
            void navigator.clipboard.writeText(codes.join('\n')).then(() => toast.success(STRINGS.copied))
          }
        >
          {STRINGS.copyCodes}
        </Button>
        <Button type="button" onClick={onDone}>
          {STRINGS.savedCodes}
        </Button>
      </div>
    </div>
  );
}

function TotpSetup({ onCodes, onCancel }: { onCodes: (codes: string[]) => void; onCancel: () => void }) {
  const setup = useTotpSetup();
  const confirm = useTotpConfirm();
  const [qr, setQr] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const codeId = useId();
  const { mutate } = setup;
  useEffect(() => mutate(), [mutate]);
  useEffect(() => {
    if (setup.data) void QRCode.toDataURL(setup.data.otpauth_url, { margin: 1, width: 192 }).then(setQr);
  }, [setup.data]);
  if (setup.isError) return <SectionError error={setup.error} onRetry={() => setup.mutate()} />;
  if (!setup.data) return <SectionLoading />;
  return (
    <form
      noValidate
      className="grid gap-4"
      onSubmit={(event) => {
        event.preventDefault();
        setError(null);
        confirm.mutate(code.trim(), {
          onSuccess: (result) => onCodes(result.recovery_codes),
          onError: (err) => setError(apiErrorMessage(err, MFA_ERRORS.badCode)),
        });
      }}
    >
      <p className="text-sm">{STRINGS.scan}</p>
      <div className="flex flex-col gap-4 sm:flex-row sm:items-center">
        {qr ? (
          <img src={qr} alt={STRINGS.qrAlt} width={192} height={192} className="rounded bg-white p-1" />
        ) : null}
        <div className="grid min-w-0 gap-1 text-sm">
          <span className="font-medium">{STRINGS.secretLabel}</span>
          <code className="font-mono break-all" data-testid="totp-secret">
            {setup.data.secret}
          </code>
        </div>
      </div>
      <FormAlert message={error ?? undefined} />
      <div className="grid max-w-xs gap-2">
        <Label htmlFor={codeId}>{STRINGS.codeLabel}</Label>
        <Input
          id={codeId}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          value={code}
          onChange={(event) => setCode(event.target.value)}
        />
      </div>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={confirm.isPending}>
          {confirm.isPending ? STRINGS.confirming : STRINGS.confirm}
        </Button>
        <Button type="button" variant="outline" onClick={onCancel}>
          {STRINGS.cancel}
        </Button>
      </div>
    </form>
  );
}

export function TwoFactorCard() {
  const status = useMfaStatus();
  const disable = useTotpDisable();
  const regenerate = useRegenerateRecoveryCodes();
  const [settingUp, setSettingUp] = useState(false);
  const [codes, setCodes] = useState<string[] | null>(null);
  return (
    <Card>
      <CardHeader>
        <CardTitle>{STRINGS.twoFactorTitle}</CardTitle>
        <CardDescription>{STRINGS.twoFactorDescription}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {status.isPending ? (
          <SectionLoading />
        ) : status.isError ? (
          <SectionError error={status.error} onRetry={() => void status.refetch()} />
        ) : codes ? (
          <RecoveryCodes codes={codes} onDone={() => setCodes(null)} />
        ) : settingUp ? (
          <TotpSetup
            onCodes={(next) => {
              setSettingUp(false);
              setCodes(next);
            }}
            onCancel={() => setSettingUp(false)}
          />
        ) : (
          <div className="grid gap-3">
            <p className="flex items-center gap-2 text-sm">
              <Badge variant={status.data.totp_enabled ? 'default' : 'secondary'}>
                {status.data.totp_enabled ? STRINGS.totpOn : STRINGS.totpOff}
              </Badge>
            </p>
            {status.data.totp_enabled || status.data.passkeys.length ? (
              <p className="text-sm text-muted-foreground">
                {STRINGS.recoveryLeft(status.data.recovery_codes_left)}
              </p>
            ) : null}
            <div className="flex flex-wrap gap-2">
              {status.data.totp_enabled ? (
                <ConfirmAction
                  trigger={STRINGS.turnOff}
                  title={STRINGS.turnOffTitle}
                  description={STRINGS.turnOffText}
                  confirmLabel={STRINGS.turnOff}
                  variant="outline"
                  disabled={disable.isPending}
                  onConfirm={() =>
                    disable.mutate(undefined, {
                      onSuccess: () => toast.success(STRINGS.turnedOff),
                      onError: (error) => reportApiError(error, { toast: true }),
                    })
                  }
                />
              ) : (
                <Button type="button" onClick={() => setSettingUp(true)}>
                  {STRINGS.setUp}
                </Button>
              )}
              {status.data.totp_enabled || status.data.passkeys.length ? (
                <Button
                  type="button"
                  variant="outline"
                  disabled={regenerate.isPending}
                  onClick={() =>
                    regenerate.mutate(undefined, {
                      onSuccess: (result) => setCodes(result.recovery_codes),
                      onError: (error) => reportApiError(error, { toast: true }),
                    })
                  }
                >
                  {STRINGS.newRecoveryCodes}
                </Button>
              ) : null}
            </div>
          </div>
        )}
      </CardContent>
    </Card>
  );
}

function PasskeyRow({ passkey }: { passkey: TPasskey }) {
  const remove = useDeletePasskey();
  return (
    <li className="flex flex-wrap items-center justify-between gap-2 border-b py-2 last:border-b-0">
      <div className="grid min-w-0 gap-0.5">
        <span className="truncate font-medium">{passkey.name}</span>
        <span className="text-xs text-muted-foreground">
          {STRINGS.created} {formatDate(passkey.created_at)} · {STRINGS.lastUsed}{' '}
          {passkey.last_used_at ? formatDateTime(passkey.last_used_at) : STRINGS.never}
        </span>
      </div>
      <ConfirmAction
        trigger={STRINGS.remove}
        triggerLabel={STRINGS.removePasskeyLabel(passkey.name)}
        title={STRINGS.removePasskeyTitle(passkey.name)}
        description={STRINGS.removePasskeyText}
        confirmLabel={STRINGS.remove}
        disabled={remove.isPending}
        onConfirm={() =>
          remove.mutate(passkey.id, {
            onSuccess: () => toast.success(STRINGS.removed),
            onError: (error) => reportApiError(error, { toast: true }),
          })
        }
      />
    </li>
  );
}

export function PasskeysCard({ onAdded }: { onAdded?: (() => void) | undefined }) {
  const status = useMfaStatus();
  const add = useAddPasskey();
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const nameId = useId();
  return (
    <Card>
      <CardHeader>
        <CardTitle>{STRINGS.passkeysTitle}</CardTitle>
        <CardDescription>{STRINGS.passkeysDescription}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {status.isPending ? (
          <SectionLoading />
        ) : status.isError ? (
          <SectionError error={status.error} onRetry={() => void status.refetch()} />
        ) : status.data.passkeys.length ? (
          <ul aria-label={STRINGS.passkeysTitle}>
            {status.data.passkeys.map((passkey) => (
              <PasskeyRow key={passkey.id} passkey={passkey} />
            ))}
          </ul>
        ) : (
          <p className="text-sm text-muted-foreground">{STRINGS.noPasskeys}</p>
        )}
        <FormAlert message={error ?? undefined} />
        <form
          noValidate
          className="flex flex-col gap-2 sm:flex-row sm:items-end"
          onSubmit={(event) => {
            event.preventDefault();
            setError(null);
            add.mutate(name.trim(), {
              onSuccess: () => {
                setName('');
                toast.success(STRINGS.passkeyAdded);
                onAdded?.();
              },
              onError: (err) => setError(apiErrorMessage(err, MFA_ERRORS.passkeyFailed)),
            });
          }}
        >
          <div className="grid flex-1 gap-2 sm:max-w-xs">
            <Label htmlFor={nameId}>{STRINGS.passkeyName}</Label>
            <Input
              id={nameId}
              placeholder={STRINGS.passkeyNameHint}
              maxLength={100}
              value={name}
              onChange={(event) => setName(event.target.value)}
            />
          </div>
          <Button type="submit" disabled={add.isPending}>
            {add.isPending ? STRINGS.adding : STRINGS.addPasskey}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
