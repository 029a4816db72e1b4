// /dev/outbox: the mail this Titan kept instead of sending (no SMTP_URL), for one address at a time
// (?to=). It only calls the API, which answers only requests made on the machine running Titan.
import { MailIcon } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import type { TOutboxMail } from '@titan/contracts';

import { EmptyState } from '../../../components/empty-state';
import { SectionError, SectionLoading } from '../../../components/load-state';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { isDevOutboxOn } from '../../../lib/dev-outbox';
import { formatDateTime } from '../../../lib/format';
import { PRODUCT_NAME } from '../../../lib/strings';
import { useOutbox } from '../api/get-outbox';
import { DEV_OUTBOX_STRINGS as S } from '../strings';

function OutboxMail({ mail }: { mail: TOutboxMail }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>{mail.subject}</CardTitle>
        <CardDescription>{S.sentAt(formatDateTime(mail.sent_at))}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        {mail.links.length > 0 ? (
          <ul aria-label={S.links} className="grid gap-1 text-sm">
            {mail.links.map((link) => (
              <li key={link} className="break-all">
                <a href={link} className="underline underline-offset-4">
                  {link}
                </a>
              </li>
            ))}
          </ul>
        ) : null}
        {/* The text part only: the HTML part is never rendered. */}
        <pre className="rounded-md bg-muted p-3 font-sans text-sm whitespace-pre-wrap">{mail.text}</pre>
      </CardContent>
    </Card>
  );
}

function OutboxMails({ to }: { to: string }) {
  const mails = useOutbox(to);
  if (mails.isPending) return <SectionLoading />;
  if (mails.isError)
    return <SectionError error={mails.error} onRetry={() => void mails.refetch()} fallback={S.loadFailed} />;
  if (mails.data.length === 0)
    return <EmptyState icon={MailIcon} title={S.emptyTitle} text={S.emptyText(to)} />;
  return (
    <div className="grid gap-4">
      {mails.data.map((mail) => (
        <OutboxMail key={`${mail.sent_at}-${mail.subject}`} mail={mail} />
      ))}
    </div>
  );
}

export function OutboxRoute() {
  const [searchParams, setSearchParams] = useSearchParams();
  const to = searchParams.get('to')?.trim() ?? '';
  const [typed, setTyped] = useState(to);
  const on = isDevOutboxOn();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const email = typed.trim();
    if (email) setSearchParams({ to: email });
  };

  return (
    <main className="mx-auto flex min-h-dvh w-full max-w-2xl flex-col gap-6 p-4 sm:p-8">
      <p className="text-xl font-semibold tracking-tight">{PRODUCT_NAME}</p>
      <div className="grid gap-1">
        <h1 className="text-lg font-semibold">{S.title}</h1>
        <p className="text-sm text-muted-foreground">{on ? S.description : S.off}</p>
      </div>
      {on ? (
        <>
          <form onSubmit={submit} className="flex flex-col gap-2 sm:flex-row sm:items-end">
            <div className="grid flex-1 gap-2">
              <Label htmlFor="dev-outbox-to">{S.email}</Label>
              <Input
                id="dev-outbox-to"
                type="email"
                required
                value={typed}
                onChange={(event) => setTyped(event.target.value)}
              />
            </div>
            <Button type="submit">{S.show}</Button>
          </form>
          {to ? <OutboxMails to={to} /> : null}
        </>
      ) : null}
    </main>
  );
}
