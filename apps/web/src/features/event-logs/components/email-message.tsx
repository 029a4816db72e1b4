// An email as it was handed to the mail server: from, to, subject, the HTML part rendered in a
// sandboxed frame (no scripts, no same-origin access, no forms or pop-ups) and the text part.
import type { TEmailMessage } from '@titan/contracts';
import type { ReactNode } from 'react';

import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card';
import { EVENT_LOGS_STRINGS } from '../strings';
import { previewHtml } from '../utils/email-preview';

const S = EVENT_LOGS_STRINGS.log;

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="min-w-0 break-words">{children}</dd>
    </>
  );
}

export function EmailMessage({ message }: { message: TEmailMessage }) {
  const none = EVENT_LOGS_STRINGS.logs.none;
  const empty = !message.html && !message.text;
  return (
    <Card>
      <CardHeader>
        <CardTitle>{S.message}</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-4">
        <dl className="grid grid-cols-[minmax(6rem,auto)_1fr] gap-x-6 gap-y-1 text-sm">
          <Field label={S.from}>{message.from ?? none}</Field>
          <Field label={S.to}>{message.to ?? none}</Field>
          <Field label={S.subject}>{message.subject ?? none}</Field>
        </dl>
        {empty ? (
          <p className="text-sm text-muted-foreground">{S.noMessage}</p>
        ) : (
          <>
            <section aria-label={S.htmlPart} className="grid gap-2">
              <h3 className="text-sm font-medium">{S.htmlPart}</h3>
              {message.html ? (
                <iframe
                  title={S.renderedFrame}
                  // Empty sandbox: no scripts, forms, pop-ups or same-origin access for the mail.
                  sandbox=""
                  referrerPolicy="no-referrer"
                  srcDoc={previewHtml(message.html)}
                  className="h-[32rem] w-full rounded-md border bg-white"
                />
              ) : (
                <p className="text-sm text-muted-foreground">{S.noHtml}</p>
              )}
            </section>
            <section aria-label={S.textPart} className="grid gap-2">
              <h3 className="text-sm font-medium">{S.textPart}</h3>
              {message.text ? (
                <pre
                  tabIndex={0}
                  className="max-h-96 overflow-auto rounded-md border bg-muted/40 p-3 text-sm break-words whitespace-pre-wrap"
                >
                  {message.text}
                </pre>
              ) : (
                <p className="text-sm text-muted-foreground">{S.noText}</p>
              )}
            </section>
          </>
        )}
      </CardContent>
    </Card>
  );
}
