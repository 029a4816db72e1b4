// Upload (POST /api/agents/{id}/avatar/) or remove (PUT avatar_url: null) an agent's picture. The
// server checks the file by its bytes; its refusal shows here in its own words.
import { AGENT_AVATAR_TYPES, type TAgent } from '@titan/contracts';
import { useId, useRef } from 'react';
import { toast } from 'sonner';

import { Button } from '../../../components/ui/button';
import { apiErrorMessage, isHandledApiError } from '../../../lib/api-errors';
import { useUpdateAgent } from '../api/update-agent';
import { useUploadAgentAvatar } from '../api/upload-agent-avatar';
import { AGENT_STRINGS } from '../strings';
import { AgentAvatar } from './agent-avatar';

const E = AGENT_STRINGS.editor;

export function AvatarField({ agent, canWrite }: { agent: TAgent; canWrite: boolean }) {
  const input = useRef<HTMLInputElement>(null);
  const hintId = useId();
  const upload = useUploadAgentAvatar();
  const update = useUpdateAgent();

  const onFile = (file: File | undefined) => {
    if (!file) return;
    upload.mutate(
      { id: agent.id, file },
      {
        onSuccess: () => toast.success(E.avatarUploaded),
        onError: (error) => {
          if (!isHandledApiError(error)) toast.error(apiErrorMessage(error));
        },
        onSettled: () => {
          if (input.current) input.current.value = '';
        },
      },
    );
  };

  return (
    <div className="flex flex-wrap items-center gap-3">
      <AgentAvatar name={agent.name} url={agent.avatar_url} className="size-14" />
      {canWrite ? (
        <>
          <input
            ref={input}
            type="file"
            accept={AGENT_AVATAR_TYPES.join(',')}
            className="sr-only"
            aria-label={E.avatarUpload}
            aria-describedby={hintId}
            onChange={(e) => onFile(e.target.files?.[0])}
          />
          <Button
            type="button"
            variant="outline"
            size="sm"
            disabled={upload.isPending}
            onClick={() => input.current?.click()}
          >
            {upload.isPending ? E.avatarUploading : E.avatarUpload}
          </Button>
          {agent.avatar_url ? (
            <Button
              type="button"
              variant="ghost"
              size="sm"
              disabled={update.isPending}
              onClick={() =>
                update.mutate(
                  { id: agent.id, avatar_url: null },
                  {
                    onSuccess: () => toast.success(E.avatarRemoved),
                    onError: (e) => toast.error(apiErrorMessage(e)),
                  },
                )
              }
            >
              {E.avatarRemove}
            </Button>
          ) : null}
          <span id={hintId} className="text-xs text-muted-foreground">
            {E.avatarHint}
          </span>
        </>
      ) : null}
    </div>
  );
}
