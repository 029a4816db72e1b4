// The composer's canned responses: typing `/` opens a list of the business's saved replies, narrowed
// by what follows the slash (short code, then text). Arrow keys move, Enter or Tab inserts, Escape
// closes; a click inserts too. The picked reply is rendered for this conversation by the server
// (its Liquid variables filled) and replaces the `/query`; its attachment goes to the composer.
import type { TCannedResponse, TRenderedCanned } from '@titan/contracts';
import { PaperclipIcon } from 'lucide-react';
import { useId, useState, type KeyboardEvent } from 'react';
import { toast } from 'sonner';

import { isHandledApiError } from '../../../lib/api-errors';
import { useCannedResponses } from '../../../lib/canned-responses';
import { cn } from '../../../lib/utils';
import { renderCanned } from '../api/render-canned';
import { replaceSlashQuery, slashQuery, type TSlashQuery } from './slash-query';
import { CANNED_PICKER_STRINGS as C } from './strings';

export type TCannedAttachment = NonNullable<TRenderedCanned['attachment']>;

/**
 * The picker's state for one text box: what is typed (`text`, `caret`), and what happens on a pick.
 * `keyDown` must run first in the box's key handler: it answers true when it used the key.
 */
export function useCannedPicker({
  conversationId,
  text,
  caret,
  onInsert,
  onAttachment,
}: {
  /** Null: no picker (the box is not a reply box). */
  conversationId: number | null;
  text: string;
  caret: number;
  onInsert: (text: string, caret: number) => void;
  onAttachment?: (attachment: TCannedAttachment) => void;
}) {
  const slash = slashQuery(text, caret);
  const [dismissed, setDismissed] = useState<number | null>(null);
  // A slash dismissed with Escape stays closed until another one is typed.
  const open = conversationId !== null && slash !== null && dismissed !== slash.start;
  const results = useCannedResponses(slash?.query ?? '', open);
  const items = open ? (results.data ?? []) : [];
  const [active, setActive] = useState(0);
  const [busy, setBusy] = useState(false);
  // A new query starts at the top of its list (state adjusted while rendering, not in an effect).
  const query = slash?.query;
  const [shownQuery, setShownQuery] = useState(query);
  if (query !== shownQuery) {
    setShownQuery(query);
    setActive(0);
  }
  // Once the slash is gone (sent, deleted, inserted), the next one opens the list again.
  if (slash === null && dismissed !== null) setDismissed(null);

  const pick = async (item: TCannedResponse, at: TSlashQuery) => {
    if (conversationId === null) return;
    setBusy(true);
    try {
      const rendered = await renderCanned(item.id, conversationId);
      const next = replaceSlashQuery(text, at, rendered.content);
      onInsert(next.text, next.caret);
      if (rendered.attachment && onAttachment) onAttachment(rendered.attachment);
    } catch (error) {
      if (!isHandledApiError(error)) toast.error(C.failed);
    } finally {
      setBusy(false);
    }
  };

  const keyDown = (event: KeyboardEvent<HTMLTextAreaElement>): boolean => {
    if (!open || !slash) return false;
    if (event.key === 'Escape') {
      event.preventDefault();
      setDismissed(slash.start);
      return true;
    }
    if (items.length === 0) return false;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((i) => (i + step + items.length) % items.length);
      return true;
    }
    if ((event.key === 'Enter' && !event.shiftKey) || event.key === 'Tab') {
      event.preventDefault();
      if (!busy) void pick(items[Math.min(active, items.length - 1)]!, slash);
      return true;
    }
    return false;
  };

  return {
    open,
    keyDown,
    listProps: {
      open,
      loading: results.isPending,
      items,
      active,
      onHover: setActive,
      onPick: (item: TCannedResponse) => slash && void pick(item, slash),
    },
  };
}

export function CannedList({
  id,
  open,
  loading,
  items,
  active,
  onHover,
  onPick,
  search,
}: {
  id: string;
  open: boolean;
  loading: boolean;
  items: TCannedResponse[];
  active: number;
  onHover: (index: number) => void;
  onPick: (item: TCannedResponse) => void;
  search: string;
}) {
  if (!open) return null;
  return (
    <div className="absolute right-0 bottom-full left-0 z-20 mb-1 max-h-64 overflow-y-auto rounded-md border bg-popover p-1 text-popover-foreground shadow-md">
      {loading ? (
        <p className="px-2 py-1.5 text-sm text-muted-foreground">{C.loading}</p>
      ) : items.length === 0 ? (
        <p className="px-2 py-1.5 text-sm text-muted-foreground">{search ? C.empty : C.none}</p>
      ) : (
        <ul id={id} role="listbox" aria-label={C.list}>
          {items.map((item, index) => (
            <li
              key={item.id}
              id={`${id}-${item.id}`}
              role="option"
              aria-selected={index === active}
              onMouseDown={(event) => event.preventDefault()}
              onMouseEnter={() => onHover(index)}
              onClick={() => onPick(item)}
              className={cn(
                'flex cursor-default flex-col gap-0.5 rounded-sm px-2 py-1.5 text-sm',
                index === active && 'bg-accent text-accent-foreground',
              )}
            >
              <span className="flex items-center gap-1.5">
                <span className="font-mono text-xs font-medium">/{item.short_code}</span>
                {item.attachment ? (
                  <PaperclipIcon
                    aria-label={C.attachment(item.attachment.file_name)}
                    className="size-3.5 text-muted-foreground"
                  />
                ) : null}
              </span>
              <span className="line-clamp-2 text-xs text-muted-foreground">{item.content}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** The listbox id and the active option's id, for the text box's aria attributes. */
export function useCannedIds(items: TCannedResponse[], active: number, open: boolean) {
  const id = useId();
  const current = open ? items[active] : undefined;
  return { listId: id, activeId: current ? `${id}-${current.id}` : undefined };
}

/**
 * A canned response's file as a File, for a channel that uploads it again (WhatsApp media): read
 * from the short-lived URL the render answered.
 */
export async function cannedAttachmentFile(attachment: TCannedAttachment): Promise<File> {
  const response = await fetch(attachment.url);
  if (!response.ok) throw new Error(`the attachment could not be read (${response.status})`);
  const blob = await response.blob();
  return new File([blob], attachment.file_name, { type: attachment.mime_type || blob.type });
}
