// A text as it was handed to Twilio: from (the number or Messaging Service), to, the body as the
// recipient reads it, and how it travels — its segments and their encoding.
import type { TSmsMessage } from '@titan/contracts';
import type { ReactNode } from 'react';

import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card';
import { EVENT_LOGS_STRINGS } from '../strings';

const S = EVENT_LOGS_STRINGS.log;

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="min-w-0 break-words">{children}</dd>
    </>
  );
}

export function SmsMessage({ message }: { message: TSmsMessage }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>{S.textMessage}</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-4">
        <dl className="grid grid-cols-[minmax(6rem,auto)_1fr] gap-x-6 gap-y-1 text-sm">
          <Field label={S.from}>{message.from ?? EVENT_LOGS_STRINGS.logs.none}</Field>
          <Field label={S.to}>{message.to}</Field>
          <Field label={S.segments}>
            {S.segmentsDetail(message.segments, message.encoding, message.characters)}
          </Field>
        </dl>
        <p
          aria-label={S.textMessage}
          className="max-w-prose rounded-2xl bg-muted px-4 py-3 text-sm whitespace-pre-wrap break-words"
        >
          {message.body}
        </p>
      </CardContent>
    </Card>
  );
}
