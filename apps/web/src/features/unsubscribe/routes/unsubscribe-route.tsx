// /engage/unsubscribe?token=…: the public page behind the unsubscribe link of every email. It says
// what unsubscribing means (which business, which address, that its emails stop), takes one button
// press, confirms, and offers to subscribe again. A link whose token is not valid says so.
import { CheckCircle2Icon, MailXIcon } from 'lucide-react';
import { useEffect } from 'react';
import { useSearchParams } from 'react-router';

import { CenteredCard } from '../../../components/centered-card';
import { Alert, AlertDescription } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { apiErrorStatus } from '../../../lib/api-errors';
import { useSetSubscription } from '../api/set-subscription';
import { useUnsubscribeState, type TUnsubscribeState } from '../api/get-unsubscribe-state';
import { UNSUBSCRIBE_STRINGS as S } from '../strings';

/** The server refuses a token it did not sign (400) or whose send is gone (404). */
const INVALID = new Set([400, 401, 403, 404, 410]);

function Invalid() {
  useEffect(() => {
    document.title = S.invalidTitle;
  }, []);
  return <CenteredCard brand={null} title={S.invalidTitle} description={S.invalid} />;
}

function Subscription({ token, state }: { token: string; state: TUnsubscribeState }) {
  const change = useSetSubscription(token);
  const business = state.business_name;
  const email = state.email;
  // After an undo the page says so, rather than starting over.
  // The business's customers see the business, not the software it runs on.
  useEffect(() => {
    document.title = S.title(business);
  }, [business]);
  const resubscribed = !state.unsubscribed && change.isSuccess && change.variables === false;
  const failure = change.isError ? (
    <Alert variant="destructive">
      <AlertDescription>{S.failed}</AlertDescription>
    </Alert>
  ) : null;

  if (state.unsubscribed) {
    return (
      <CenteredCard brand={business} title={S.doneTitle} description={S.done(business, email)}>
        <p className="flex items-center gap-2 text-sm text-muted-foreground">
          <CheckCircle2Icon aria-hidden="true" className="size-4 text-emerald-600" />
          {S.undoHint}
        </p>
        {failure}
        <Button variant="outline" disabled={change.isPending} onClick={() => change.mutate(false)}>
          {change.isPending ? <Spinner /> : null}
          {change.isPending ? S.undoing : S.undo}
        </Button>
      </CenteredCard>
    );
  }
  if (resubscribed) {
    return (
      <CenteredCard
        brand={business}
        title={S.resubscribedTitle}
        description={S.resubscribed(business, email)}
      >
        {failure}
        <Button variant="outline" disabled={change.isPending} onClick={() => change.mutate(true)}>
          {S.unsubscribeAgain}
        </Button>
      </CenteredCard>
    );
  }
  return (
    <CenteredCard brand={business} title={S.title(business)} description={S.explain(business, email)}>
      <p className="text-sm text-muted-foreground">{S.undoLater}</p>
      {failure}
      <Button variant="destructive" disabled={change.isPending} onClick={() => change.mutate(true)}>
        {change.isPending ? <Spinner /> : <MailXIcon aria-hidden="true" />}
        {change.isPending ? S.working : S.button}
      </Button>
    </CenteredCard>
  );
}

export function UnsubscribeRoute() {
  const [params] = useSearchParams();
  const token = params.get('token')?.trim() ?? '';
  const state = useUnsubscribeState(token);
  if (!token) return <Invalid />;
  if (state.isPending)
    return (
      <CenteredCard brand={null} title={S.loading}>
        <Spinner />
      </CenteredCard>
    );
  if (state.isError) {
    const status = apiErrorStatus(state.error);
    if (status !== null && INVALID.has(status)) return <Invalid />;
    return (
      <CenteredCard brand={null} title={S.failed}>
        <Button variant="outline" onClick={() => void state.refetch()}>
          {S.retry}
        </Button>
      </CenteredCard>
    );
  }
  return <Subscription token={token} state={state.data} />;
}
