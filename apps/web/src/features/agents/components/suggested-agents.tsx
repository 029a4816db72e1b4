// Agents suggested from what the business has (win-back, unanswered follow-up…): each is created as
// a draft with its ready config (POST /api/agents/) and opened, to be checked before activating.
import type { TSuggestedAgent } from '@titan/contracts';
import { SparklesIcon } from 'lucide-react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';

import { SectionError } from '../../../components/load-state';
import { Button } from '../../../components/ui/button';
import {
  Card,
  CardContent,
  CardDescription,
  CardFooter,
  CardHeader,
  CardTitle,
} from '../../../components/ui/card';
import { agentPath } from '../../../config/paths';
import { apiErrorMessage, isHandledApiError } from '../../../lib/api-errors';
import { useCreateAgent } from '../api/create-agent';
import { useSuggestedAgents } from '../api/get-suggested-agents';
import { AGENT_STRINGS } from '../strings';

const L = AGENT_STRINGS.list;

export function SuggestedAgents({ canWrite }: { canWrite: boolean }) {
  const suggestions = useSuggestedAgents(true);
  const create = useCreateAgent();
  const navigate = useNavigate();

  const start = (s: TSuggestedAgent) =>
    create.mutate(
      { name: s.name, description: s.description, status: 'draft', config: s.config },
      {
        onSuccess: (agent) => {
          toast.success(L.draftCreated(agent.name));
          void navigate(agentPath(agent.id));
        },
        onError: (error) => {
          if (!isHandledApiError(error)) toast.error(apiErrorMessage(error));
        },
      },
    );

  return (
    <section aria-labelledby="agent-suggestions" className="grid gap-3">
      <h2 id="agent-suggestions" className="flex items-center gap-2 font-medium">
        <SparklesIcon aria-hidden="true" className="size-4" />
        {L.suggestionsTitle}
      </h2>
      {suggestions.isPending ? (
        <p className="text-sm text-muted-foreground">{L.suggestionsLoading}</p>
      ) : suggestions.isError ? (
        <SectionError
          error={suggestions.error}
          onRetry={() => void suggestions.refetch()}
          fallback={L.suggestionsFailed}
        />
      ) : suggestions.data.length === 0 ? (
        <p className="text-sm text-muted-foreground">{L.noSuggestions}</p>
      ) : (
        <ul className="grid gap-4 md:grid-cols-2">
          {suggestions.data.map((s) => (
            <li key={s.key}>
              <Card className="h-full">
                <CardHeader>
                  <CardTitle>{s.name}</CardTitle>
                  <CardDescription>{s.description}</CardDescription>
                </CardHeader>
                <CardContent className="grid gap-1 text-sm">
                  <p>{s.reason}</p>
                  <p className="text-muted-foreground">{L.audienceCount(s.audience_count)}</p>
                </CardContent>
                {canWrite ? (
                  <CardFooter>
                    <Button type="button" disabled={create.isPending} onClick={() => start(s)}>
                      {L.startFrom(s.name)}
                    </Button>
                  </CardFooter>
                ) : null}
              </Card>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
