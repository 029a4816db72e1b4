// The template source editor: CodeMirror 6 with HTML highlighting (MJML reads as markup too), the
// server's errors marked at their lines, and a handle to insert text at the cursor or go to a line.
// Loaded on its own (lazy-code-editor.tsx), so CodeMirror stays out of every other screen's bundle.
import { html } from '@codemirror/lang-html';
import { lintGutter, setDiagnostics, type Diagnostic } from '@codemirror/lint';
import { EditorView } from '@codemirror/view';
import CodeMirror, { type ReactCodeMirrorRef } from '@uiw/react-codemirror';
import { useEffect, useImperativeHandle, useMemo, useRef } from 'react';

import type { TCodeEditorProps } from './code-editor-types';

const extensions = [
  html({ matchClosingTags: true, autoCloseTags: true }),
  lintGutter(),
  EditorView.lineWrapping,
];

export function CodeEditor({ value, onChange, readOnly, errors, label, handleRef }: TCodeEditorProps) {
  const cm = useRef<ReactCodeMirrorRef>(null);

  const diagnostics = useMemo(() => errors, [errors]);
  useEffect(() => {
    const view = cm.current?.view;
    if (!view) return;
    const doc = view.state.doc;
    const marks: Diagnostic[] = diagnostics
      .filter((e) => e.line !== null && e.line >= 1 && e.line <= doc.lines)
      .map((e) => {
        const line = doc.line(e.line!);
        return { from: line.from, to: line.to, severity: 'error', message: e.message };
      });
    view.dispatch(setDiagnostics(view.state, marks));
  }, [diagnostics, value]);

  useImperativeHandle(handleRef, () => ({
    insert(text: string) {
      const view = cm.current?.view;
      if (!view) {
        onChange(value + text);
        return;
      }
      const { from, to } = view.state.selection.main;
      view.dispatch({ changes: { from, to, insert: text }, selection: { anchor: from + text.length } });
      view.focus();
    },
    goToLine(n: number) {
      const view = cm.current?.view;
      if (!view) return;
      const line = view.state.doc.line(Math.min(Math.max(n, 1), view.state.doc.lines));
      view.dispatch({
        selection: { anchor: line.from },
        effects: EditorView.scrollIntoView(line.from, { y: 'center' }),
      });
      view.focus();
    },
  }));

  return (
    <CodeMirror
      ref={cm}
      value={value}
      onChange={onChange}
      readOnly={readOnly}
      editable={!readOnly}
      extensions={extensions}
      height="28rem"
      aria-label={label}
      className="overflow-hidden rounded-md border text-sm"
      basicSetup={{ foldGutter: true, highlightActiveLine: !readOnly }}
    />
  );
}
