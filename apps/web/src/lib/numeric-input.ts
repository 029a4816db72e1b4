// The numeric-only key handler (spec section 5): a field that takes digits only lets through
// digits, Backspace, Tab, the arrow keys and Delete, and a paste keeps only its digits. Keys that
// type nothing are not refused either: Enter (submits the form), Home/End, Escape, and shortcuts
// with Ctrl or ⌘ (copy, paste — filtered below —, undo, select all).
import type { ClipboardEvent, KeyboardEvent } from 'react';

const EDITING_KEYS = new Set([
  'Backspace',
  'Tab',
  'Delete',
  'ArrowLeft',
  'ArrowRight',
  'ArrowUp',
  'ArrowDown',
  // Not characters: refusing them would only break the form.
  'Enter',
  'Home',
  'End',
  'Escape',
]);

/** Whether a key may reach a digits-only field. */
export function isNumericOnlyKey(event: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey'>): boolean {
  if (event.ctrlKey || event.metaKey) return true;
  return /^[0-9]$/.test(event.key) || EDITING_KEYS.has(event.key);
}

export function numericOnlyKeyDown(event: KeyboardEvent<HTMLInputElement>): void {
  if (!isNumericOnlyKey(event)) event.preventDefault();
}

export function digitsOnly(text: string): string {
  return text.replace(/\D/g, '');
}

/** Pastes only the digits of the clipboard text, where the selection is. */
export function numericOnlyPaste(event: ClipboardEvent<HTMLInputElement>): void {
  const pasted = event.clipboardData.getData('text');
  const digits = digitsOnly(pasted);
  if (digits === pasted) return;
  event.preventDefault();
  const input = event.currentTarget;
  const start = input.selectionStart ?? input.value.length;
  const end = input.selectionEnd ?? start;
  input.setRangeText(digits, start, end, 'end');
  // Tell React (and react-hook-form) that the value changed, as typing would.
  input.dispatchEvent(new Event('input', { bubbles: true }));
}

/** Spread on an input that takes digits only. */
export const numericOnlyInputProps = {
  inputMode: 'numeric',
  onKeyDown: numericOnlyKeyDown,
  onPaste: numericOnlyPaste,
} as const;

/** A dial code is "+" and digits: the field takes the digits, the "+" is shown beside it. */
export function dialCodeDigits(code: string | null | undefined): string {
  return digitsOnly(code ?? '');
}

/** The typed digits as a dial code, or `empty` when there are none. */
export function toDialCode<T extends null | undefined>(value: unknown, empty: T): string | T {
  const digits = typeof value === 'string' ? digitsOnly(value) : '';
  return digits ? `+${digits}` : empty;
}
