// The inbox's keyboard (issue 29): j / k the next and previous conversation, r reply, n note, a
// assign to me, e resolve, ? the list of shortcuts. Keys typed into a field are the field's; keys
// with Ctrl, Cmd or Alt are the browser's (Ctrl/Cmd-K is the command palette's).
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';

import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '../../../components/ui/dialog';
import { reportApiError } from '../../../lib/api-errors';
import { useProfile } from '../../../lib/session/profile';
import { conversationQueryOptions } from '../api/get-conversation';
import { useUpdateConversation } from '../api/update-conversation';
import { CONVERSATIONS_STRINGS } from '../strings';

const S = CONVERSATIONS_STRINGS.shortcuts;

export const INBOX_SHORTCUTS = [
  { keys: ['j'], label: S.next },
  { keys: ['k'], label: S.previous },
  { keys: ['r'], label: S.reply },
  { keys: ['n'], label: S.note },
  { keys: ['a'], label: S.assignMe },
  { keys: ['e'], label: S.resolve },
  { keys: ['?'], label: S.help },
  { keys: ['Ctrl', 'K'], label: S.palette },
] as const;

/** Whether a key press belongs to what has focus (a field, an editor, an open menu or dialog). */
function typingInto(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  // A rich-text editor (the email composer's TipTap): `isContentEditable`, and its attribute for
  // engines that lack the property (jsdom).
  if (target.isContentEditable || target.closest('[contenteditable]:not([contenteditable="false"])'))
    return true;
  if (target.closest('input, textarea, select, [role="menu"], [role="dialog"], [role="listbox"]'))
    return true;
  return false;
}

/** The conversation rows in the list, in order, as the list drew them. */
function rowIds(): number[] {
  return [...document.querySelectorAll<HTMLElement>('[data-conversation-id]')]
    .map((el) => Number(el.dataset.conversationId))
    .filter((id) => Number.isSafeInteger(id) && id > 0);
}

function focusComposer(mode: 'reply' | 'note') {
  const tabs = document.querySelectorAll<HTMLButtonElement>('[data-composer-modes] [role="tab"]');
  tabs[mode === 'reply' ? 0 : 1]?.click();
  // The composer of the mode just chosen renders on the next frame.
  requestAnimationFrame(() =>
    document.querySelector<HTMLTextAreaElement>('[data-composer] textarea')?.focus(),
  );
}

export function InboxShortcuts({
  selectedId,
  hrefFor,
}: {
  selectedId: number | null;
  hrefFor: (id: number) => string;
}) {
  // The open conversation (the pane loads it too: one query), which assign and resolve act on.
  const queryClient = useQueryClient();
  const current =
    useQuery({ ...conversationQueryOptions(queryClient, selectedId ?? 0), enabled: selectedId !== null })
      .data ?? null;
  const navigate = useNavigate();
  const [help, setHelp] = useState(false);
  const profile = useProfile();
  const update = useUpdateConversation();
  const me = profile.data?.pk ?? null;

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
      if (typingInto(event.target)) return;
      const move = (step: 1 | -1) => {
        const ids = rowIds();
        if (ids.length === 0) return;
        const at = selectedId === null ? -1 : ids.indexOf(selectedId);
        const next = ids[at === -1 ? (step === 1 ? 0 : ids.length - 1) : at + step];
        if (next !== undefined) {
          navigate(hrefFor(next));
          document.querySelector(`[data-conversation-id="${next}"]`)?.scrollIntoView?.({ block: 'nearest' });
        }
      };
      const act = (body: { assignee_id: number } | { status: 'resolved' }, done: string) => {
        if (!current) return;
        update.mutate(
          { id: current.id, ...body },
          {
            onSuccess: () => toast.success(done),
            onError: (error) => reportApiError(error, { toast: true }),
          },
        );
      };
      const handlers: Record<string, () => void> = {
        j: () => move(1),
        k: () => move(-1),
        r: () => focusComposer('reply'),
        n: () => focusComposer('note'),
        a: () => (me === null ? undefined : act({ assignee_id: me }, S.assignedToYou)),
        e: () => act({ status: 'resolved' }, S.resolved),
        '?': () => setHelp(true),
      };
      const handler = handlers[event.key];
      if (!handler) return;
      event.preventDefault();
      handler();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [selectedId, hrefFor, navigate, current, me, update]);

  return (
    <Dialog open={help} onOpenChange={setHelp}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{S.title}</DialogTitle>
          <DialogDescription>{S.description}</DialogDescription>
        </DialogHeader>
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
          {INBOX_SHORTCUTS.map((s) => (
            <div key={s.label} className="contents">
              <dt className="flex gap-1">
                {s.keys.map((k) => (
                  <kbd key={k} className="rounded border bg-muted px-1.5 py-0.5 font-mono text-xs">
                    {k}
                  </kbd>
                ))}
              </dt>
              <dd>{s.label}</dd>
            </div>
          ))}
        </dl>
      </DialogContent>
    </Dialog>
  );
}
