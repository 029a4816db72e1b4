// The page an authorization server sends the person back to: posts code, state and iss once (the
// state is single-use, so a second post — React's development double effect — must not happen),
// then goes back to the tab, or says plainly what went wrong.
import type { TOAuthCallbackRequest } from '@titan/contracts';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { toast } from 'sonner';

import { Alert, AlertDescription } from '../../../components/ui/alert';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card';
import { Spinner } from '../../../components/ui/spinner';
import { describeApiFailure } from '../../../lib/api-errors';
import { OUTSIDE_TOOLS_STRINGS as S } from '../strings';

/** The server's words: a field error (state, iss), else its message, 5xx included (a refused code is a 502). */
function wordsOf(error: unknown): string {
  const failure = describeApiFailure(error);
  if (failure.kind === 'response') {
    const first = Object.values(failure.fieldErrors ?? {})[0]?.[0];
    return first ?? failure.message;
  }
  return 'message' in failure ? failure.message : S.loadFailed;
}

export function OAuthCallback({
  title,
  backTo,
  backLabel,
  complete,
}: {
  title: string;
  backTo: string;
  backLabel: string;
  complete: (body: TOAuthCallbackRequest) => Promise<{ name: string }>;
}) {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const posted = useRef(false);
  const code = params.get('code');
  const state = params.get('state');
  const denied = params.get('error');
  const [problem, setProblem] = useState<string | null>(
    denied
      ? S.callbackDenied(params.get('error_description') ?? denied)
      : !code || !state
        ? S.callbackMissing
        : null,
  );

  useEffect(() => {
    if (posted.current || problem || !code || !state) return;
    posted.current = true;
    const iss = params.get('iss');
    complete({ code, state, ...(iss ? { iss } : {}) }).then(
      (done) => {
        toast.success(S.connectedToast(done.name));
        void navigate(backTo, { replace: true });
      },
      (error: unknown) => setProblem(wordsOf(error)),
    );
  }, [code, state, problem, params, complete, navigate, backTo]);

  return (
    <Card>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-4">
        {problem ? (
          <Alert role="alert" variant="destructive">
            <AlertDescription>{problem}</AlertDescription>
          </Alert>
        ) : (
          <p role="status" className="flex items-center gap-2 text-sm">
            <Spinner className="size-4" /> {S.callbackWorking}
          </p>
        )}
        <Link to={backTo} className="text-sm underline">
          {backLabel}
        </Link>
      </CardContent>
    </Card>
  );
}
