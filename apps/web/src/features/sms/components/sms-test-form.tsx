// Sends one test text from the connected account, with a live count of its characters and
// segments (as the server and Twilio count them); the queued send links to its page in the logs.
import { zodResolver } from '@hookform/resolvers/zod';
import {
  SMS_TEST_BODY,
  smsSegments,
  ZSmsTestRequest,
  type TSmsSend,
  type TSmsTestRequest,
} from '@titan/contracts';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { Link } from 'react-router';
import { toast } from 'sonner';

import { FormAlert } from '../../../components/form/form-alert';
import { TextField } from '../../../components/form/text-field';
import { TextareaField } from '../../../components/form/textarea-field';
import { Button } from '../../../components/ui/button';
import { eventLogPath } from '../../../config/paths';
import { applyApiErrorToForm } from '../../../lib/api-errors';
import { useSendSmsTest } from '../api/send-sms-test';
import { SMS_STRINGS } from '../strings';

const S = SMS_STRINGS.test;
const FIELDS = ['to', 'body'] as const;

export function SmsTestForm() {
  const form = useForm<TSmsTestRequest>({
    resolver: zodResolver(ZSmsTestRequest),
    defaultValues: { to: '', body: SMS_TEST_BODY },
  });
  const send = useSendSmsTest();
  const [sent, setSent] = useState<TSmsSend | null>(null);
  const body = useWatch({ control: form.control, name: 'body' }) ?? '';
  const split = smsSegments(body);
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const result = await send.mutateAsync(values);
      setSent(result);
      toast.success(S.sent);
    } catch (error) {
      applyApiErrorToForm(form, FIELDS, error);
    }
  });

  return (
    <form
      noValidate
      aria-label={S.title}
      onSubmit={(event) => void onSubmit(event)}
      className="grid max-w-xl gap-4"
    >
      <FormAlert message={errors.root?.server?.message} />
      <TextField
        label={S.to}
        type="tel"
        autoComplete="off"
        hint={S.toHint}
        registration={form.register('to')}
        error={errors.to?.message}
      />
      <TextareaField
        label={S.body}
        rows={3}
        hint={S.counter(split.characters, split.segments, split.encoding)}
        registration={form.register('body')}
        error={errors.body?.message}
      />
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" disabled={isSubmitting}>
          {isSubmitting ? S.sending : S.send}
        </Button>
        {sent ? (
          <Link
            to={eventLogPath('sms', sent.id)}
            className="text-sm font-medium underline underline-offset-4"
          >
            {S.viewLog}
          </Link>
        ) : null}
      </div>
    </form>
  );
}
