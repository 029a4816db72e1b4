// The copilot above the own-channel composer: "Suggest a reply" puts a draft grounded in the
// knowledge base into the message box (staff edit it and send it themselves) and lists the articles
// it used; "Summarize" shows a short summary of the conversation. Failures (no AI model set up, the
// model not answering) are said in the server's words.
import type { TAiCopilotAnswer } from '@titan/contracts';
import { ListIcon, SparklesIcon, XIcon } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';

import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { apiErrorMessage, isHandledApiError } from '../../../lib/api-errors';
import { useSuggestReply } from '../api/suggest-reply';
import { useSummarize } from '../api/summarize';
import { CONVERSATIONS_STRINGS } from '../strings';

const S = CONVERSATIONS_STRINGS.copilot;

export function CopilotBar({
  conversationId,
  onDraft,
}: {
  conversationId: number;
  onDraft: (text: string) => void;
}) {
  const suggest = useSuggestReply();
  const summarize = useSummarize();
  const [sources, setSources] = useState<TAiCopilotAnswer['sources']>([]);
  const [summary, setSummary] = useState<string | null>(null);
  const failed = (error: unknown) => {
    if (!isHandledApiError(error)) toast.error(apiErrorMessage(error, S.failed));
  };
  return (
    <div className="grid gap-2">
      {summary ? (
        <section
          aria-label={S.summaryLabel}
          className="relative rounded-md border bg-muted/40 p-3 pr-10 text-sm"
        >
          <p className="mb-1 font-medium">{S.summaryLabel}</p>
          <p className="whitespace-pre-wrap">{summary}</p>
          <Button
            type="button"
            variant="ghost"
            size="icon"
            aria-label={S.closeSummary}
            className="absolute top-1 right-1"
            onClick={() => setSummary(null)}
          >
            <XIcon aria-hidden="true" />
          </Button>
        </section>
      ) : null}
      <div className="flex flex-wrap items-center gap-2">
        <Button
          type="button"
          variant="outline"
          size="sm"
          disabled={suggest.isPending}
          onClick={() =>
            suggest.mutate(conversationId, {
              onSuccess: (answer) => {
                onDraft(answer.content);
                setSources(answer.sources);
              },
              onError: failed,
            })
          }
        >
          {suggest.isPending ? <Spinner aria-hidden="true" /> : <SparklesIcon aria-hidden="true" />}
          {S.suggest}
        </Button>
        <Button
          type="button"
          variant="outline"
          size="sm"
          disabled={summarize.isPending}
          onClick={() =>
            summarize.mutate(conversationId, {
              onSuccess: (answer) => setSummary(answer.content),
              onError: failed,
            })
          }
        >
          {summarize.isPending ? <Spinner aria-hidden="true" /> : <ListIcon aria-hidden="true" />}
          {S.summarize}
        </Button>
        {sources.length > 0 ? (
          <p className="min-w-0 text-sm text-muted-foreground">
            {S.sources}{' '}
            {sources.map((s, i) => (
              <span key={s.article_id}>
                {i > 0 ? ', ' : ''}
                <a href={s.url} target="_blank" rel="noreferrer" className="break-words underline">
                  {s.title}
                </a>
              </span>
            ))}
          </p>
        ) : null}
      </div>
    </div>
  );
}
