// "Continue with {label}" for each configured OpenID Connect provider; nothing when none is set up.
import { useState } from 'react';

import { Button } from '../../../components/ui/button';
import { reportApiError } from '../../../lib/api-errors';
import { useOAuthProviders } from '../api/get-oauth-providers';
import { AUTH_STRINGS } from '../strings';
import { beginOidcSignIn } from '../utils/oidc';

export function OidcButtons({ next }: { next: string | null }) {
  const providers = useOAuthProviders();
  const [starting, setStarting] = useState<string | null>(null);
  if (!providers.data?.length) return null;
  return (
    <div className="grid gap-3">
      <div className="flex items-center gap-3 text-xs text-muted-foreground uppercase">
        <span className="h-px flex-1 bg-border" />
        {AUTH_STRINGS.or}
        <span className="h-px flex-1 bg-border" />
      </div>
      {providers.data.map((provider) => (
        <Button
          key={provider.id}
          type="button"
          variant="outline"
          disabled={starting !== null}
          onClick={() => {
            setStarting(provider.id);
            beginOidcSignIn(provider, next)
              .then((url) => window.location.assign(url))
              .catch((failure: unknown) => {
                setStarting(null);
                reportApiError(failure, { toast: true });
              });
          }}
        >
          {starting === provider.id ? AUTH_STRINGS.redirecting : AUTH_STRINGS.continueWith(provider.label)}
        </Button>
      ))}
    </div>
  );
}
