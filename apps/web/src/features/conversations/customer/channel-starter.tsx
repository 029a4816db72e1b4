// The first message of an email or SMS conversation staff start (POST /api/msg/conversations/): to
// the chosen customer, or to an address / number typed in. Email: subject and the email composer's
// rich text editor; SMS: the text. One idempotency key per form, so a double click or a retry sends
// once. A refusal shows the API's field message under the form.
import {
  ZEnvelope,
  ZStartedConversation,
  type TMessage,
  type TStartConversationRequestInput,
  type TStartedConversation,
} from '@titan/contracts';
import { useMutation } from '@tanstack/react-query';
import { useId, useState } from 'react';

import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { Spinner } from '../../../components/ui/spinner';
import { Textarea } from '../../../components/ui/textarea';
import { describeApiFailure } from '../../../lib/api-errors';
import { protectedClient } from '../../../lib/protected-client';
import { CONVERSATIONS_STRINGS } from '../strings';
import { RichTextEditor } from '../email/rich-text-editor';
import { richTextOf, useRichTextEditor, type TRichText } from '../email/use-rich-text-editor';
import { NEW_CONVERSATION_STRINGS as N } from './strings';

const START_PATH = '/api/msg/conversations/';

/** Who the first message goes to: a customer of the directory, or an address / number. */
export type TStartTarget = { customerId: number } | { to: string };

async function startConversation(body: TStartConversationRequestInput): Promise<TStartedConversation> {
  const { data } = await protectedClient.post(START_PATH, body);
  return ZEnvelope(ZStartedConversation).parse(data).result;
}

/** The first field message the API gave, else its message, else the generic words. */
function failureText(error: unknown): string {
  const failure = describeApiFailure(error);
  if (failure.kind !== 'response') return CONVERSATIONS_STRINGS.sendFailed;
  const first = Object.values(failure.fieldErrors ?? {}).find((m) => m?.length)?.[0];
  return first ?? (failure.message || CONVERSATIONS_STRINGS.sendFailed);
}

const recipientOf = (target: TStartTarget) =>
  'customerId' in target ? { customer_id: target.customerId } : { to: target.to };

function useStart(onStarted: (message: TMessage) => void) {
  const [key] = useState(() => crypto.randomUUID());
  const mutation = useMutation({
    mutationFn: (body: TStartConversationRequestInput) =>
      startConversation({ ...body, idempotency_key: key }),
    onSuccess: (started) => onStarted(started.message),
  });
  return mutation;
}

function Failure({ error }: { error: unknown }) {
  return (
    <p role="alert" className="text-sm text-destructive">
      {failureText(error)}
    </p>
  );
}

export function EmailStarter({
  target,
  onStarted,
}: {
  target: TStartTarget;
  onStarted: (message: TMessage) => void;
}) {
  const subjectId = useId();
  const [subject, setSubject] = useState('');
  const [body, setBody] = useState<TRichText>({ html: '', text: '' });
  const start = useStart(onStarted);
  const ready = subject.trim() !== '' && body.text !== '' && !start.isPending;
  const submit = () => {
    if (!ready) return;
    start.mutate({
      channel: 'email',
      ...recipientOf(target),
      subject: subject.trim(),
      content: body.text,
      html: body.html,
    });
  };
  const editor = useRichTextEditor({ onChange: setBody, onSubmit: submit });
  return (
    <form
      aria-label={N.emailForm}
      className="grid gap-3"
      onSubmit={(event) => {
        event.preventDefault();
        if (editor) setBody(richTextOf(editor));
        submit();
      }}
    >
      <div className="grid gap-2">
        <Label htmlFor={subjectId}>{N.subject}</Label>
        <Input
          id={subjectId}
          value={subject}
          maxLength={500}
          onChange={(event) => setSubject(event.target.value)}
        />
      </div>
      <RichTextEditor editor={editor} />
      {start.isError ? <Failure error={start.error} /> : null}
      <div className="flex justify-end">
        <Button type="submit" disabled={!ready}>
          {start.isPending ? <Spinner /> : null}
          {N.sendEmail}
        </Button>
      </div>
    </form>
  );
}

export function SmsStarter({
  target,
  onStarted,
}: {
  target: TStartTarget;
  onStarted: (message: TMessage) => void;
}) {
  const textId = useId();
  const [text, setText] = useState('');
  const start = useStart(onStarted);
  const ready = text.trim() !== '' && !start.isPending;
  return (
    <form
      aria-label={N.smsForm}
      className="grid gap-3"
      onSubmit={(event) => {
        event.preventDefault();
        if (ready) start.mutate({ channel: 'sms', ...recipientOf(target), content: text.trim() });
      }}
    >
      <div className="grid gap-2">
        <Label htmlFor={textId}>{N.smsText}</Label>
        <Textarea
          id={textId}
          value={text}
          rows={4}
          maxLength={1600}
          onChange={(event) => setText(event.target.value)}
        />
        <p className="text-xs text-muted-foreground">{N.characters(text.length)}</p>
      </div>
      {start.isError ? <Failure error={start.error} /> : null}
      <div className="flex justify-end">
        <Button type="submit" disabled={!ready}>
          {start.isPending ? <Spinner /> : null}
          {N.sendSms}
        </Button>
      </div>
    </form>
  );
}
