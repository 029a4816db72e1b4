// The composer in note mode (issue 29): a private note for the team, amber like the notes it writes.
// Typing @ opens the members to mention; picking one writes @[Name](member:<id>), which the server
// checks and keeps for the mentions' alerts.
import type { TConversation } from '@titan/contracts';
import { LockIcon } from 'lucide-react';
import { useMemo, useState, type KeyboardEvent } from 'react';
import { toast } from 'sonner';

import { Button } from '../../../components/ui/button';
import { isHandledApiError } from '../../../lib/api-errors';
import { useMembers } from '../../../lib/business/members';
import { useAddNote } from './api/add-note';
import { memberName, mentionQuery } from './utils';
import { TEAM_INBOX_STRINGS as T } from './strings';

export function NoteComposer({ conversation }: { conversation: Pick<TConversation, 'id'> }) {
  const [text, setText] = useState('');
  const [active, setActive] = useState(0);
  const add = useAddNote();
  const members = useMembers().data;
  const query = mentionQuery(text);
  const matches = useMemo(
    () =>
      query === null
        ? []
        : (members ?? [])
            .filter((m) => memberName(m).toLowerCase().includes(query.toLowerCase()))
            .slice(0, 6),
    [members, query],
  );

  const mention = (index: number) => {
    const m = matches[index];
    if (!m || query === null) return;
    setText(`${text.slice(0, text.length - query.length - 1)}@[${memberName(m)}](member:${m.user.pk}) `);
    setActive(0);
  };

  const submit = () => {
    const content = text.trim();
    if (!content || add.isPending) return;
    add.mutate(
      { conversationId: conversation.id, content },
      {
        onSuccess: () => setText((current) => (current === text ? '' : current)),
        onError: (error) => {
          if (!isHandledApiError(error)) toast.error(T.noteFailed);
        },
      },
    );
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (matches.length > 0) {
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        setActive((i) => (i + (event.key === 'ArrowDown' ? 1 : matches.length - 1)) % matches.length);
        return;
      }
      if (event.key === 'Enter' || event.key === 'Tab') {
        event.preventDefault();
        mention(active);
        return;
      }
    }
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    submit();
  };

  return (
    <div className="relative flex flex-col gap-1 border-t bg-amber-50/60 p-3 dark:bg-amber-950/20">
      {matches.length > 0 ? (
        <ul
          role="listbox"
          aria-label={T.mentionList}
          className="absolute bottom-full left-3 z-10 mb-1 w-64 max-w-[calc(100%-1.5rem)] overflow-hidden rounded-md border bg-popover p-1 text-popover-foreground shadow-md"
        >
          {matches.map((m, i) => (
            <li
              key={m.id}
              role="option"
              aria-selected={i === active}
              onMouseDown={(event) => {
                event.preventDefault();
                mention(i);
              }}
              className="cursor-pointer truncate rounded px-2 py-1.5 text-sm aria-selected:bg-accent"
            >
              {memberName(m)}
            </li>
          ))}
        </ul>
      ) : null}
      <div className="flex items-end gap-2">
        <textarea
          rows={2}
          value={text}
          aria-label={T.noteLabel}
          placeholder={T.notePlaceholder}
          onChange={(event) => {
            setText(event.target.value);
            setActive(0);
          }}
          onKeyDown={onKeyDown}
          className="min-h-9 flex-1 resize-none rounded-md border border-amber-500/50 bg-background px-3 py-2 text-sm shadow-xs outline-none focus-visible:ring-[3px] focus-visible:ring-amber-500/40"
        />
        <Button type="button" onClick={submit} disabled={text.trim() === '' || add.isPending}>
          <LockIcon aria-hidden="true" />
          {T.addNote}
        </Button>
      </div>
      <p className="text-xs text-amber-800 dark:text-amber-300">{T.noteHint}</p>
    </div>
  );
}
