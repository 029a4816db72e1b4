// Business-wide identity verification: on/off, the secret (hidden until revealed, copy, rotate after a
// warning) and how a site signs user ids with it.
import type { TWidgetSettings } from '@titan/contracts';
import { EyeIcon, EyeOffIcon, RefreshCwIcon } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';

import { ConfirmAction } from '../../../components/confirm-action';
import { CopyButton } from '../../../components/copy-button';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { reportApiError } from '../../../lib/api-errors';
import { useRotateIdentitySecret } from '../api/rotate-identity-secret';
import { useUpdateWidgetSettings } from '../api/update-widget-settings';
import { EMBED_STRINGS } from '../strings';
import { IdentitySnippets } from './identity-snippets';

const S = EMBED_STRINGS.identity;

function SecretField({ secret }: { secret: string }) {
  const [revealed, setRevealed] = useState(false);
  const rotate = useRotateIdentitySecret();
  return (
    <div className="grid gap-2">
      <p className="text-sm font-medium">{S.secret}</p>
      <code aria-label={S.secret} className="rounded-md bg-muted px-3 py-2 font-mono text-sm break-all">
        {revealed ? secret : '•'.repeat(Math.min(secret.length, 32))}
      </code>
      <p className="text-xs text-muted-foreground">{S.secretHint}</p>
      <div className="flex flex-wrap gap-2">
        <Button
          type="button"
          variant="outline"
          size="sm"
          aria-label={revealed ? S.hideLabel : S.revealLabel}
          aria-pressed={revealed}
          onClick={() => setRevealed((value) => !value)}
        >
          {revealed ? <EyeOffIcon aria-hidden="true" /> : <EyeIcon aria-hidden="true" />}
          {revealed ? S.hide : S.reveal}
        </Button>
        <CopyButton value={secret} label={S.copy} />
        <ConfirmAction
          trigger={
            <>
              <RefreshCwIcon aria-hidden="true" />
              {S.rotate}
            </>
          }
          triggerLabel={S.rotate}
          variant="outline"
          title={S.rotateTitle}
          description={S.rotateText}
          confirmLabel={S.rotate}
          disabled={rotate.isPending}
          onConfirm={() =>
            rotate.mutate(undefined, {
              onSuccess: () => toast.success(S.rotated),
              onError: (error) => reportApiError(error, { toast: true }),
            })
          }
        />
      </div>
    </div>
  );
}

export function IdentityVerificationCard({ settings }: { settings: TWidgetSettings }) {
  const update = useUpdateWidgetSettings();
  const turn = (on: boolean) =>
    update.mutate(
      { identity_verification: on },
      {
        onSuccess: () => toast.success(on ? S.turnedOn : S.turnedOff),
        onError: (error) => reportApiError(error, { toast: true }),
      },
    );

  return (
    <Card>
      <CardHeader>
        <CardTitle>{S.title}</CardTitle>
        <CardDescription>{S.description}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-5">
        {settings.identity_verification ? (
          <>
            <div className="flex flex-wrap items-center gap-3">
              <p className="text-sm">{S.on}</p>
              <ConfirmAction
                trigger={S.turnOff}
                triggerLabel={S.turnOffLabel}
                variant="outline"
                title={S.turnOffTitle}
                description={S.turnOffText}
                confirmLabel={S.turnOff}
                disabled={update.isPending}
                onConfirm={() => turn(false)}
              />
            </div>
            {settings.identity_secret ? <SecretField secret={settings.identity_secret} /> : null}
            <IdentitySnippets />
          </>
        ) : (
          <div className="grid justify-items-start gap-3">
            <p className="text-sm text-muted-foreground">{S.off}</p>
            <Button type="button" disabled={update.isPending} onClick={() => turn(true)}>
              {S.turnOn}
            </Button>
          </div>
        )}
      </CardContent>
    </Card>
  );
}
