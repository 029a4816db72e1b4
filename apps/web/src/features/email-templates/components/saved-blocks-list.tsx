// The blocks saved from the visual editor, by name, each deletable after confirming (templates that
// used one keep their copy of its MJML).
import type { TEmailBlock } from '@titan/contracts';
import { Trash2Icon } from 'lucide-react';
import { toast } from 'sonner';

import { ConfirmAction } from '../../../components/confirm-action';
import { reportApiError } from '../../../lib/api-errors';
import { useDeleteEmailBlock } from '../api/delete-email-block';
import { EMAIL_TEMPLATE_STRINGS } from '../strings';

const S = EMAIL_TEMPLATE_STRINGS.brand;

export function SavedBlocksList({ blocks, canDelete }: { blocks: TEmailBlock[]; canDelete: boolean }) {
  const remove = useDeleteEmailBlock();
  if (blocks.length === 0) return <p className="text-sm text-muted-foreground">{S.noBlocks}</p>;
  return (
    <ul aria-label={S.blocksLabel} className="grid divide-y rounded-md border">
      {blocks.map((block) => (
        <li key={block.id} className="flex min-w-0 items-center gap-2 px-3 py-2">
          <span className="min-w-0 flex-1 truncate text-sm font-medium">{block.name}</span>
          {canDelete ? (
            <ConfirmAction
              trigger={<Trash2Icon aria-hidden="true" />}
              triggerLabel={S.deleteBlock(block.name)}
              title={S.deleteBlockTitle(block.name)}
              description={S.deleteBlockText}
              confirmLabel={EMAIL_TEMPLATE_STRINGS.delete}
              disabled={remove.isPending}
              onConfirm={() =>
                remove.mutate(block.id, {
                  onSuccess: () => toast.success(S.blockDeleted(block.name)),
                  onError: (error) => reportApiError(error, { toast: true }),
                })
              }
            />
          ) : null}
        </li>
      ))}
    </ul>
  );
}
