// The AI template screen's work: a prompt, a tone and an audience → the model's text streaming in →
// the compiled template in editable fields beside a live preview (the editor's, rendered by the
// server) → saved as an ordinary template, with a link to it in the template editor.
import {
  lineOfTemplateError,
  type TEmailTemplate,
  type TEmailTemplateStreamEvent,
  type TFieldErrors,
  type TGeneratedEmailTemplate,
} from '@titan/contracts';
import { SaveIcon, SparklesIcon, SquareIcon } from 'lucide-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';

import { FormAlert } from '../../../components/form/form-alert';
import { Alert, AlertDescription } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { NativeSelect } from '../../../components/ui/native-select';
import { Spinner } from '../../../components/ui/spinner';
import { Textarea } from '../../../components/ui/textarea';
import { emailTemplatePath } from '../../../config/paths';
import { apiErrorMessage, describeApiFailure, reportApiError } from '../../../lib/api-errors';
import { streamEmailTemplateGeneration } from '../api/generate-email-template';
import { useEmailTemplatePreview } from '../api/preview-email-template';
import { useCreateEmailTemplate } from '../api/save-email-template';
import { EMAIL_TEMPLATE_STRINGS } from '../strings';
import { useDebouncedValue } from '../utils/use-debounced-value';
import { formingTemplate } from '../utils/forming-template';
import { nestVariables, sampleValueFor, variablesIn } from '../utils/template-source';
import { LazyCodeEditor } from './lazy-code-editor';
import { PreviewPane } from './preview-pane';

const S = EMAIL_TEMPLATE_STRINGS.ai;
const E = EMAIL_TEMPLATE_STRINGS;
const PREVIEW_DEBOUNCE_MS = 400;

type TStage = Extract<TEmailTemplateStreamEvent, { type: 'status' }>['stage'];

type TPhase =
  | { kind: 'idle' }
  | { kind: 'streaming'; stage: TStage; text: string }
  | { kind: 'failed'; message: string; errors: TFieldErrors | null };

function ErrorList({ errors }: { errors: TFieldErrors | null }) {
  const messages = Object.entries(errors ?? {}).flatMap(([field, list]) =>
    list.map((m) => (field === 'non_field_errors' ? m : `${field}: ${m}`)),
  );
  if (messages.length === 0) return null;
  return (
    <ul className="mt-1 list-disc pl-5 text-sm">
      {messages.map((m, i) => (
        <li key={i}>{m}</li>
      ))}
    </ul>
  );
}

/** The answer as it streams: its fields as they form once it reads as an object, else the raw text. */
function FormingTemplate({ text }: { text: string }) {
  const forming = useMemo(() => formingTemplate(text), [text]);
  const box =
    'max-h-72 overflow-auto rounded-md border bg-muted/40 p-3 font-mono text-xs whitespace-pre-wrap';
  if (!forming) {
    return (
      <pre aria-label={S.streamLabel} className={box}>
        {text}
      </pre>
    );
  }
  return (
    <section aria-label={S.streamLabel} className="grid min-w-0 gap-3">
      <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 text-sm">
        {(['name', 'subject', 'preheader'] as const).map((field) => (
          <div key={field} className="contents">
            <dt className="text-muted-foreground">{E[field]}</dt>
            <dd className="min-w-0 break-words">{forming[field] ?? '…'}</dd>
          </div>
        ))}
      </dl>
      {forming.content !== undefined ? (
        <pre aria-label={S.formingContent} className={box}>
          {forming.content}
        </pre>
      ) : null}
    </section>
  );
}

export function AiTemplateGenerator({ onNotConfigured }: { onNotConfigured: () => void }) {
  const [prompt, setPrompt] = useState('');
  const [tone, setTone] = useState<string>(S.tones[0]);
  const [audience, setAudience] = useState('');
  const [phase, setPhase] = useState<TPhase>({ kind: 'idle' });
  const [draft, setDraft] = useState<TGeneratedEmailTemplate | null>(null);
  const [saved, setSaved] = useState<TEmailTemplate | null>(null);
  const [saveErrors, setSaveErrors] = useState<TFieldErrors>({});
  const [formError, setFormError] = useState<string | undefined>();
  const running = useRef<AbortController | null>(null);
  const create = useCreateEmailTemplate();

  // Leaving the screen stops a generation under way.
  useEffect(() => () => running.current?.abort(), []);

  const onEvent = (event: TEmailTemplateStreamEvent) => {
    switch (event.type) {
      case 'status':
        // A repair is a new answer: its text replaces the first one's.
        setPhase((p) => ({
          kind: 'streaming',
          stage: event.stage,
          text: event.stage === 'repairing' || p.kind !== 'streaming' ? '' : p.text,
        }));
        return;
      case 'delta':
        setPhase((p) => (p.kind === 'streaming' ? { ...p, text: p.text + event.text } : p));
        return;
      case 'result':
        setDraft(event.template);
        setPhase({ kind: 'idle' });
        return;
      case 'error':
        setPhase({ kind: 'failed', message: event.message, errors: event.errors ?? null });
        return;
      default: {
        const unreachable: never = event;
        return unreachable;
      }
    }
  };

  const generate = async () => {
    running.current?.abort();
    const aborter = new AbortController();
    running.current = aborter;
    setDraft(null);
    setSaved(null);
    setSaveErrors({});
    setFormError(undefined);
    setPhase({ kind: 'streaming', stage: 'generating', text: '' });
    try {
      await streamEmailTemplateGeneration(
        { prompt, tone, ...(audience.trim() ? { audience } : {}) },
        onEvent,
        aborter.signal,
      );
      // The stream ended without a result or an error: the connection was cut.
      setPhase((p) => (p.kind === 'streaming' ? { kind: 'failed', message: S.stopped, errors: null } : p));
    } catch (error) {
      if (aborter.signal.aborted) {
        setPhase({ kind: 'idle' });
        return;
      }
      const failure = describeApiFailure(error);
      if (failure.kind === 'response' && failure.status === 409) onNotConfigured();
      setPhase({
        kind: 'failed',
        message: apiErrorMessage(error, S.failed),
        errors: failure.kind === 'response' ? failure.fieldErrors : null,
      });
    } finally {
      if (running.current === aborter) running.current = null;
    }
  };

  const set = <K extends keyof TGeneratedEmailTemplate>(key: K, value: TGeneratedEmailTemplate[K]) => {
    setDraft((d) => (d ? { ...d, [key]: value } : d));
    setSaveErrors((e) => {
      const { [key]: _gone, non_field_errors: _nf, ...rest } = e;
      return rest;
    });
  };

  const variables = useMemo(
    () => (draft ? variablesIn(draft.subject, draft.preheader, draft.content) : []),
    [draft],
  );
  const previewSource = useMemo(
    () =>
      draft
        ? {
            templateId: null,
            draft: {
              subject: draft.subject,
              preheader: draft.preheader,
              format: draft.format,
              content: draft.content,
              text_content: null,
            },
            variables: nestVariables(Object.fromEntries(variables.map((v) => [v, sampleValueFor(v)]))),
            customerId: null,
          }
        : null,
    [draft, variables],
  );
  const previewInput = useDebouncedValue(previewSource, PREVIEW_DEBOUNCE_MS);
  const preview = useEmailTemplatePreview(previewInput);
  const errorsOf = (field: string) => saveErrors[field] ?? preview.data?.errors[field];

  const save = () => {
    if (!draft) return;
    setFormError(undefined);
    create.mutate(draft, {
      onSuccess: (t) => {
        setSaved(t);
        toast.success(S.savedAs(t.name));
      },
      onError: (error) => {
        const failure = describeApiFailure(error);
        if (failure.kind === 'response' && failure.status === 400 && failure.fieldErrors) {
          setSaveErrors(failure.fieldErrors);
          setFormError(failure.fieldErrors.non_field_errors?.join(' ') ?? E.fixErrors);
          return;
        }
        setFormError(apiErrorMessage(error));
        reportApiError(error);
      },
    });
  };

  const streaming = phase.kind === 'streaming';
  const ids = { prompt: 'ai-prompt', tone: 'ai-tone', audience: 'ai-audience' };
  return (
    <div className="grid gap-6">
      <form
        aria-label={S.title}
        className="grid max-w-3xl gap-4"
        onSubmit={(e) => {
          e.preventDefault();
          void generate();
        }}
      >
        <div className="grid gap-2">
          <Label htmlFor={ids.prompt}>{S.prompt}</Label>
          <Textarea
            id={ids.prompt}
            rows={4}
            required
            minLength={3}
            value={prompt}
            placeholder={S.promptPlaceholder}
            onChange={(e) => setPrompt(e.target.value)}
          />
        </div>
        <div className="grid gap-4 sm:grid-cols-[12rem_1fr]">
          <div className="grid gap-2">
            <Label htmlFor={ids.tone}>{S.tone}</Label>
            <NativeSelect id={ids.tone} value={tone} onChange={(e) => setTone(e.target.value)}>
              {S.tones.map((t) => (
                <option key={t} value={t}>
                  {t}
                </option>
              ))}
            </NativeSelect>
          </div>
          <div className="grid gap-2">
            <Label htmlFor={ids.audience}>{S.audience}</Label>
            <Input
              id={ids.audience}
              value={audience}
              placeholder={S.audiencePlaceholder}
              onChange={(e) => setAudience(e.target.value)}
            />
          </div>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <Button type="submit" disabled={streaming || prompt.trim().length < 3}>
            {streaming ? <Spinner /> : <SparklesIcon aria-hidden="true" />}
            {draft ? S.regenerate : S.generate}
          </Button>
          {streaming ? (
            <Button type="button" variant="outline" onClick={() => running.current?.abort()}>
              <SquareIcon aria-hidden="true" />
              {S.stop}
            </Button>
          ) : null}
        </div>
      </form>

      {phase.kind === 'streaming' ? (
        <section className="grid gap-2" aria-busy="true">
          <p role="status" className="flex items-center gap-2 text-sm text-muted-foreground">
            <Spinner className="size-3" />
            {S.stages[phase.stage]}
          </p>
          <FormingTemplate text={phase.text} />
        </section>
      ) : null}
      {phase.kind === 'failed' ? (
        <Alert variant="destructive">
          <AlertDescription>
            <p>{phase.message}</p>
            <ErrorList errors={phase.errors} />
          </AlertDescription>
        </Alert>
      ) : null}

      {draft ? (
        <div className="grid gap-6 xl:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
          <form
            aria-label={S.resultTitle}
            className="grid min-w-0 content-start gap-4"
            onSubmit={(e) => {
              e.preventDefault();
              save();
            }}
          >
            <h2 className="text-base font-semibold">{S.resultTitle}</h2>
            <FormAlert message={formError} />
            {(['name', 'subject', 'preheader'] as const).map((field) => (
              <div key={field} className="grid gap-2">
                <Label htmlFor={`ai-result-${field}`}>{E[field]}</Label>
                <Input
                  id={`ai-result-${field}`}
                  value={draft[field]}
                  aria-invalid={errorsOf(field) ? true : undefined}
                  onChange={(e) => set(field, e.target.value)}
                />
                {errorsOf(field) ? (
                  <p className="text-sm text-destructive">{errorsOf(field)!.join(' ')}</p>
                ) : null}
              </div>
            ))}
            <div className="grid gap-2">
              <span className="text-sm font-medium">{E.content}</span>
              <LazyCodeEditor
                value={draft.content}
                onChange={(v) => set('content', v)}
                readOnly={false}
                errors={(errorsOf('content') ?? []).map((message) => ({
                  line: lineOfTemplateError(message),
                  message,
                }))}
                label={E.editorLabel}
              />
              {errorsOf('content') ? (
                <p className="text-sm text-destructive">{errorsOf('content')!.join(' ')}</p>
              ) : null}
            </div>
            <div className="flex flex-wrap items-center gap-2">
              <Button type="submit" disabled={create.isPending || saved !== null}>
                {create.isPending ? <Spinner /> : <SaveIcon aria-hidden="true" />}
                {create.isPending ? E.saving : S.saveAsTemplate}
              </Button>
            </div>
            {saved ? (
              <Alert role="status">
                <AlertDescription>
                  <p>{S.savedAs(saved.name)}</p>
                  <Link className="font-medium underline" to={emailTemplatePath(saved.id)}>
                    {S.openInEditor}
                  </Link>
                </AlertDescription>
              </Alert>
            ) : null}
          </form>
          <PreviewPane preview={preview.data} updating={preview.isFetching} failed={preview.isError} />
        </div>
      ) : null}
    </div>
  );
}
