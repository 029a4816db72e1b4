// The business's own model: base URL, model and API key (write-only: once stored, an empty box keeps
// it, and it can be removed), saved, tested with one call, or removed to fall back to the server's.
import { zodResolver } from '@hookform/resolvers/zod';
import type { TLlmSettings, TLlmTestResult } from '@titan/contracts';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { z } from 'zod';

import { useUnsavedChanges } from '../../../components/unsaved-changes';
import { ConfirmAction } from '../../../components/confirm-action';
import { FormAlert } from '../../../components/form/form-alert';
import { TextField } from '../../../components/form/text-field';
import { Alert, AlertDescription } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { applyApiErrorToForm, reportApiError } from '../../../lib/api-errors';
import { useDeleteLlmSettings } from '../api/delete-llm-settings';
import { useSaveLlmSettings } from '../api/save-llm-settings';
import { useTestLlmConnection } from '../api/test-llm-connection';
import { LLM_STRINGS as S } from '../strings';

const FIELDS = ['base_url', 'model', 'embedding_model', 'api_key'] as const;

const ZForm = z.object({
  base_url: z.string().trim().min(1, { message: 'Enter the base URL of the API.' }),
  model: z.string().trim().min(1, { message: 'Enter the model name, e.g. gpt-4o-mini.' }),
  embedding_model: z.string().trim(),
  api_key: z.string(),
  remove_key: z.boolean(),
});
type TForm = z.infer<typeof ZForm>;

function TestOutcome({ result }: { result: TLlmTestResult }) {
  return (
    <Alert role="status" variant={result.ok ? 'default' : 'destructive'}>
      <AlertDescription>
        <p className="font-medium">
          {result.ok ? S.testOk(result.model, result.duration_ms) : S.testFailed(result.model)}
        </p>
        <p>{result.message}</p>
      </AlertDescription>
    </Alert>
  );
}

export function LlmSettingsForm({ settings }: { settings: TLlmSettings }) {
  const form = useForm<TForm>({
    resolver: zodResolver(ZForm),
    defaultValues: {
      base_url: settings.base_url ?? '',
      model: settings.model ?? '',
      embedding_model: (settings.source === 'business' ? settings.embedding_model : null) ?? '',
      api_key: '',
      remove_key: false,
    },
  });
  const save = useSaveLlmSettings();
  const forget = useDeleteLlmSettings();
  const test = useTestLlmConnection();
  const [tested, setTested] = useState<TLlmTestResult | null>(null);
  const { errors, isSubmitting } = form.formState;
  const unsaved = useUnsavedChanges(form.formState.isDirty);

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const saved = await save.mutateAsync({
        base_url: values.base_url,
        model: values.model,
        ...(values.embedding_model ? { embedding_model: values.embedding_model } : {}),
        ...(values.remove_key ? { api_key: null } : values.api_key.trim() ? { api_key: values.api_key } : {}),
      });
      toast.success(S.saved);
      setTested(null);
      form.reset({
        base_url: saved.base_url ?? '',
        model: saved.model ?? '',
        embedding_model: saved.embedding_model ?? '',
        api_key: '',
        remove_key: false,
      });
    } catch (error) {
      applyApiErrorToForm(form, FIELDS, error);
    }
  });

  const onTest = () => {
    setTested(null);
    test.mutate(undefined, {
      onSuccess: setTested,
      onError: (error) => reportApiError(error, { toast: true }),
    });
  };

  const onForget = () => {
    forget.mutate(undefined, {
      onSuccess: () => {
        toast.success(S.forgotten);
        setTested(null);
        form.reset({ base_url: '', model: '', embedding_model: '', api_key: '', remove_key: false });
      },
      onError: (error) => reportApiError(error, { toast: true }),
    });
  };

  return (
    <div className="grid gap-4">
      <form
        noValidate
        aria-label={S.title}
        onSubmit={(e) => void onSubmit(e)}
        className="grid max-w-xl gap-4"
      >
        {unsaved.dialog}
        <FormAlert message={errors.root?.server?.message} />
        <TextField
          label={S.baseUrl}
          type="url"
          autoComplete="off"
          placeholder="https://api.openai.com/v1"
          hint={S.baseUrlHint}
          registration={form.register('base_url')}
          error={errors.base_url?.message}
        />
        <TextField
          label={S.model}
          autoComplete="off"
          hint={S.modelHint}
          registration={form.register('model')}
          error={errors.model?.message}
        />
        <TextField
          label={S.embeddingModel}
          autoComplete="off"
          hint={S.embeddingModelHint}
          registration={form.register('embedding_model')}
          error={errors.embedding_model?.message}
        />
        <TextField
          label={S.apiKey}
          type="password"
          autoComplete="new-password"
          placeholder={settings.has_api_key ? S.apiKeyStored : undefined}
          hint={S.apiKeyHint}
          registration={form.register('api_key')}
          error={errors.api_key?.message}
        />
        {settings.has_api_key ? (
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" className="size-4" {...form.register('remove_key')} />
            {S.removeKey}
          </label>
        ) : null}
        <div className="flex flex-wrap items-center gap-2">
          <Button type="submit" disabled={isSubmitting}>
            {isSubmitting ? S.saving : S.save}
          </Button>
          <Button
            type="button"
            variant="outline"
            disabled={!settings.configured || test.isPending}
            onClick={onTest}
          >
            {test.isPending ? <Spinner /> : null}
            {test.isPending ? S.testing : S.test}
          </Button>
          {settings.source === 'business' ? (
            <ConfirmAction
              variant="ghost"
              trigger={S.forget}
              title={S.forgetTitle}
              description={S.forgetText}
              confirmLabel={S.forgetConfirm}
              disabled={forget.isPending}
              onConfirm={onForget}
            />
          ) : null}
        </div>
      </form>
      {tested ? <TestOutcome result={tested} /> : null}
    </div>
  );
}
