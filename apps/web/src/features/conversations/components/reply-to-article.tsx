// Under a staff reply: "Turn this reply into an article" creates a draft help-centre article from it
// (POST /api/ai/article-drafts/: written by the business's model from the question and the reply,
// or the reply as written when no model is configured — said plainly here), then links to the draft
// to edit and publish. Only for members who may write the knowledge base.
import type { TAiArticleDraft, TMessage } from '@titan/contracts';
import { BookPlusIcon } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';

import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { knowledgeArticlePath } from '../../../config/paths';
import { apiErrorMessage, isHandledApiError } from '../../../lib/api-errors';
import { useDraftArticle } from '../api/draft-article';
import { CONVERSATIONS_STRINGS } from '../strings';

const S = CONVERSATIONS_STRINGS.replyToArticle;

export function ReplyToArticle({ message }: { message: TMessage }) {
  const draft = useDraftArticle();
  const [made, setMade] = useState<TAiArticleDraft | null>(null);
  if (made)
    return (
      <div role="status" className="grid max-w-sm gap-1 text-xs">
        <p>
          {S.created}{' '}
          <Link
            to={knowledgeArticlePath(made.article.id)}
            className="font-medium underline underline-offset-4"
          >
            {S.open(made.article.title)}
          </Link>
        </p>
        {made.notice ? <p className="text-muted-foreground">{made.notice}</p> : null}
      </div>
    );
  return (
    <Button
      type="button"
      variant="ghost"
      size="sm"
      className="h-7 px-2 text-xs text-muted-foreground opacity-0 group-focus-within:opacity-100 group-hover:opacity-100 focus-visible:opacity-100 pointer-coarse:opacity-100"
      disabled={draft.isPending}
      onClick={() =>
        draft.mutate(
          { conversation_id: message.conversation_id, message_id: message.id },
          {
            onSuccess: setMade,
            onError: (error) => {
              if (!isHandledApiError(error)) toast.error(apiErrorMessage(error, S.failed));
            },
          },
        )
      }
    >
      {draft.isPending ? <Spinner aria-hidden="true" /> : <BookPlusIcon aria-hidden="true" />}
      {S.action}
    </Button>
  );
}
