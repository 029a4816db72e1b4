// The copilot's "Ask" box in the conversation's side panel: staff ask a question of their own and
// get an answer from the published articles and this conversation (POST /api/ai/ask/), with the
// articles it used as links. Without a configured model there is no answer: the box says so in the
// server's words and lists the articles that match. Nothing here reaches the customer.
import type { TAiAskAnswer } from '@titan/contracts';
import { SparklesIcon } from 'lucide-react';
import { useId, useState } from 'react';

import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { Textarea } from '../../../components/ui/textarea';
import { apiErrorMessage, isHandledApiError } from '../../../lib/api-errors';
import { useAsk } from '../api/ask-copilot';
import { CONVERSATIONS_STRINGS } from '../strings';

const S = CONVERSATIONS_STRINGS.ask;

function Sources({ sources, empty }: { sources: TAiAskAnswer['sources']; empty: string }) {
  if (sources.length === 0) return <p className="text-xs text-muted-foreground">{empty}</p>;
  return (
    <div className="grid gap-1 text-xs">
      <p className="text-muted-foreground">{S.sources}</p>
      <ul className="grid gap-1">
        {sources.map((s) => (
          <li key={s.article_id} className="min-w-0">
            <a
              href={s.url}
              target="_blank"
              rel="noreferrer"
              className="break-words underline underline-offset-2"
            >
              {s.title}
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}

export function CopilotAsk({ conversationId }: { conversationId: number }) {
  const ask = useAsk();
  const [question, setQuestion] = useState('');
  const [answer, setAnswer] = useState<TAiAskAnswer | null>(null);
  const id = useId();
  return (
    <section aria-label={S.title} className="flex flex-col gap-2 border-t px-4 py-3">
      <h3 className="text-xs font-semibold tracking-wide text-muted-foreground uppercase">{S.title}</h3>
      <p className="text-xs text-muted-foreground">{S.description}</p>
      <form
        className="grid gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          if (!question.trim()) return;
          setAnswer(null);
          ask.mutate(
            { conversation_id: conversationId, question: question.trim() },
            { onSuccess: setAnswer },
          );
        }}
      >
        <label htmlFor={id} className="sr-only">
          {S.label}
        </label>
        <Textarea
          id={id}
          rows={2}
          maxLength={1000}
          value={question}
          placeholder={S.placeholder}
          onChange={(e) => setQuestion(e.target.value)}
        />
        <Button
          type="submit"
          size="sm"
          variant="outline"
          className="justify-self-start"
          disabled={ask.isPending || !question.trim()}
        >
          {ask.isPending ? <Spinner aria-hidden="true" /> : <SparklesIcon aria-hidden="true" />}
          {S.submit}
        </Button>
      </form>
      {ask.isError && !isHandledApiError(ask.error) ? (
        <p role="alert" className="text-sm text-destructive">
          {apiErrorMessage(ask.error, S.failed)}
        </p>
      ) : null}
      {answer ? (
        <div
          role="region"
          aria-label={S.answerLabel}
          className="grid gap-2 rounded-md border bg-muted/40 p-3"
        >
          {answer.answer !== null ? (
            <>
              <p className="text-sm whitespace-pre-wrap [overflow-wrap:anywhere]">{answer.answer}</p>
              <Sources sources={answer.sources} empty={S.noSources} />
            </>
          ) : (
            <>
              {answer.notice ? <p className="text-sm">{answer.notice}</p> : null}
              <Sources sources={answer.sources} empty={S.noMatches} />
            </>
          )}
        </div>
      ) : null}
    </section>
  );
}
