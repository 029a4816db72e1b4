// The composer's text box (spec section 2): grows with its text up to 150 px, "Type a message...",
// Enter sends and Shift+Enter starts a new line (not while an input method is composing).
import { useLayoutEffect, useRef, type KeyboardEvent } from 'react';

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
}: {
  value: string;
  onChange: (value: string) => void;
  onSubmit: () => void;
  disabled?: boolean;
}) {
  const ref = useAutoGrow(value);
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    onSubmit();
  };
  return (
    <textarea
      ref={ref}
      rows={1}
      value={value}
      disabled={disabled}
      aria-label={S.messageLabel}
      placeholder={S.placeholder}
      onChange={(event) => onChange(event.target.value)}
      onKeyDown={onKeyDown}
      style={{ maxHeight: COMPOSER_MAX_HEIGHT_PX }}
      className="min-h-9 flex-1 resize-none rounded-md border border-input bg-transparent px-3 py-2 text-sm shadow-xs outline-none focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50 disabled:cursor-not-allowed disabled:opacity-50 dark:bg-input/30"
    />
  );
}
