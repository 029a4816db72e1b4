// The composer's text box (spec section 2): grows with its text up to 150 px, "Type a message...",
// Enter sends and Shift+Enter starts a new line (not while an input method is composing).
import { useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';

import { CannedList, useCannedIds, useCannedPicker, type TCannedAttachment } from '../canned/canned-picker';
import { slashQuery } from '../canned/slash-query';

import { CONVERSATIONS_STRINGS as S } from '../strings';
import { COMPOSER_MAX_HEIGHT_PX } from '../utils/composer';

function useAutoGrow(value: string) {
  const ref = useRef<HTMLTextAreaElement>(null);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    el.style.height = 'auto';
    const height = Math.min(el.scrollHeight, COMPOSER_MAX_HEIGHT_PX);
    el.style.height = `${height}px`;
    el.style.overflowY = el.scrollHeight > COMPOSER_MAX_HEIGHT_PX ? 'auto' : 'hidden';
  }, [value]);
  return ref;
}

export function MessageBox({
  value,
  onChange,
  onSubmit,
  disabled,
  canned,
}: {
  value: string;
  onChange: (value: string) => void;
  onSubmit: () => void;
  disabled?: boolean;
  /** Typing `/` opens the canned responses of the business, rendered for this conversation. */
  canned?: { conversationId: number; onAttachment?: (attachment: TCannedAttachment) => void };
}) {
  const ref = useAutoGrow(value);
  const [caret, setCaret] = useState(value.length);
  const picker = useCannedPicker({
    conversationId: canned?.conversationId ?? null,
    text: value,
    caret: Math.min(caret, value.length),
    onInsert: (text, at) => {
      onChange(text);
      setCaret(at);
      requestAnimationFrame(() => {
        ref.current?.focus();
        ref.current?.setSelectionRange(at, at);
      });
    },
    onAttachment: canned?.onAttachment,
  });
  const ids = useCannedIds(picker.listProps.items, picker.listProps.active, picker.open);
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.nativeEvent.isComposing) return;
    if (picker.keyDown(event)) return;
    if (event.key !== 'Enter' || event.shiftKey) return;
    event.preventDefault();
    onSubmit();
  };
  const box = (
    <textarea
      ref={ref}
      rows={1}
      value={value}
      disabled={disabled}
      aria-label={S.messageLabel}
      placeholder={S.placeholder}
      onChange={(event) => {
        onChange(event.target.value);
        setCaret(event.target.selectionStart ?? event.target.value.length);
      }}
      onSelect={(event) => setCaret(event.currentTarget.selectionStart ?? value.length)}
      onKeyDown={onKeyDown}
      // A text box still (screen readers and tests find it as one); the open list is named by
      // aria-controls and its highlighted option by aria-activedescendant.
      {...(canned
        ? {
            'aria-autocomplete': 'list' as const,
            'aria-controls': picker.open ? ids.listId : undefined,
            'aria-activedescendant': ids.activeId,
          }
        : {})}
      style={{ maxHeight: COMPOSER_MAX_HEIGHT_PX }}
      className="min-h-9 flex-1 resize-none rounded-md border border-input bg-transparent px-3 py-2 text-sm shadow-xs outline-none focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50 disabled:cursor-not-allowed disabled:opacity-50 dark:bg-input/30"
    />
  );
  if (!canned) return box;
  return (
    <div className="relative flex min-w-0 flex-1">
      {box}
      <CannedList
        id={ids.listId}
        {...picker.listProps}
        search={slashQuery(value, Math.min(caret, value.length))?.query ?? ''}
      />
    </div>
  );
}
