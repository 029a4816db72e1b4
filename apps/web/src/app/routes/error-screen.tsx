// The generic error screen (spec section 2), the root route's errorElement. Loaded eagerly: it
// must render even when the error is a screen's code failing to load.
import { useEffect, useRef } from 'react';
import { useNavigate, useRouteError } from 'react-router';

import { Button } from '../../components/ui/button';
import { reportError } from '../../lib/analytics';
import { ERROR_SCREEN_STRINGS } from '../strings';
import { describeRouteError } from './describe-route-error';

export function ErrorScreen() {
  const error = useRouteError();
  const navigate = useNavigate();
  // Holds the error last reported, so re-renders and StrictMode's repeated effects report it once.
  const reported = useRef<{ error: unknown } | null>(null);

  useEffect(() => {
    if (reported.current?.error === error) return;
    reported.current = { error };
    void reportError(describeRouteError(error));
  }, [error]);

  return (
    <div className="flex min-h-dvh flex-col items-center justify-center gap-4 p-6 text-center">
      <h1 className="text-3xl font-semibold tracking-tight">{ERROR_SCREEN_STRINGS.heading}</h1>
      <p className="text-muted-foreground">{ERROR_SCREEN_STRINGS.text}</p>
      <div className="flex gap-3">
        <Button variant="outline" onClick={() => void navigate(-1)}>
          {ERROR_SCREEN_STRINGS.goBack}
        </Button>
        <Button onClick={() => window.location.reload()}>{ERROR_SCREEN_STRINGS.tryAgain}</Button>
      </div>
    </div>
  );
}
