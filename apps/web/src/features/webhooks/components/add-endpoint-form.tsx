// The form adding an endpoint: URL, description and the event types as checkboxes; the server's
// field errors land on their fields. The created endpoint (with its secret) goes to `onAdded`.
import { zodResolver } from '@hookform/resolvers/zod';
import {
  WEBHOOK_EVENT_DESCRIPTIONS,
  WEBHOOK_EVENT_TYPES,
  type TWebhookEndpointWithSecret,
  type TWebhookEventType,
} from '@titan/contracts';
import { useForm } from 'react-hook-form';
import { z } from 'zod';

import { FormAlert } from '../../../components/form/form-alert';
import { TextField } from '../../../components/form/text-field';
import { Button } from '../../../components/ui/button';
import { applyApiErrorToForm } from '../../../lib/api-errors';
import { useCreateWebhookEndpoint } from '../api/create-webhook-endpoint';
import { WEBHOOKS_STRINGS as S } from '../strings';

const FIELDS = ['url', 'description', 'event_types'] as const;

const ZForm = z.object({
  url: z.string().trim().min(1, { message: S.urlRequired }),
  description: z.string(),
  event_types: z.array(z.string()).min(1, { message: S.eventTypesRequired }),
});
type TForm = z.infer<typeof ZForm>;

export function AddEndpointForm({ onAdded }: { onAdded: (endpoint: TWebhookEndpointWithSecret) => void }) {
  const form = useForm<TForm>({
    resolver: zodResolver(ZForm),
    defaultValues: { url: '', description: '', event_types: [] },
  });
  const create = useCreateWebhookEndpoint();
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const endpoint = await create.mutateAsync({
        url: values.url.trim(),
        description: values.description.trim(),
        event_types: values.event_types as TWebhookEventType[],
      });
      form.reset();
      onAdded(endpoint);
    } catch (error) {
      applyApiErrorToForm(form, FIELDS, error);
    }
  });

  return (
    <form
      noValidate
      aria-label={S.addTitle}
      onSubmit={(e) => void onSubmit(e)}
      className="grid max-w-2xl gap-4"
    >
      <FormAlert message={errors.root?.server?.message} />
      <TextField
        label={S.url}
        type="url"
        autoComplete="off"
        placeholder="https://example.com/webhooks/titan"
        hint={S.urlHint}
        registration={form.register('url')}
        error={errors.url?.message}
      />
      <TextField
        label={S.descriptionLabel}
        autoComplete="off"
        registration={form.register('description')}
        error={errors.description?.message}
      />
      <fieldset className="grid gap-2">
        <legend className="mb-1 text-sm font-medium">{S.eventTypes}</legend>
        <div className="grid gap-2 sm:grid-cols-2">
          {WEBHOOK_EVENT_TYPES.map((type) => (
            <label key={type} className="flex items-start gap-2 rounded-md border p-2 text-sm">
              <input
                type="checkbox"
                value={type}
                className="mt-0.5 size-4 accent-primary"
                {...form.register('event_types')}
              />
              <span className="grid gap-0.5">
                <span className="font-mono text-xs">{type}</span>
                <span className="text-muted-foreground">{WEBHOOK_EVENT_DESCRIPTIONS[type]}</span>
              </span>
            </label>
          ))}
        </div>
        {errors.event_types?.message ? (
          <p role="alert" className="text-sm text-destructive">
            {errors.event_types.message}
          </p>
        ) : null}
      </fieldset>
      <div>
        <Button type="submit" disabled={isSubmitting}>
          {isSubmitting ? S.adding : S.add}
        </Button>
      </div>
    </form>
  );
}
