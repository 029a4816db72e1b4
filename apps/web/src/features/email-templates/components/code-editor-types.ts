// What the lazily loaded code editor takes, so its callers need not load CodeMirror to know.
import type { RefObject } from 'react';

export type TEditorError = { line: number | null; message: string };

export type TCodeEditorHandle = {
  /** Inserts text at the cursor (replacing the selection). */
  insert(text: string): void;
  /** Moves the cursor to the start of a line and shows it. */
  goToLine(line: number): void;
};

export type TCodeEditorProps = {
  value: string;
  onChange: (value: string) => void;
  readOnly?: boolean;
  errors: TEditorError[];
  label: string;
  handleRef?: RefObject<TCodeEditorHandle | null>;
};
