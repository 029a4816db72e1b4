// The template source editor: CodeMirror 6 with HTML highlighting (MJML reads as markup too), the
// server's errors marked at their lines, and a handle to insert text at the cursor or go to a line.
// Loaded on its own (lazy-code-editor.tsx), so CodeMirror stays out of every other screen's bundle.
import { html } from '@codemirror/lang-html';
import { HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { lintGutter, setDiagnostics, type Diagnostic } from '@codemirror/lint';
import { EditorView } from '@codemirror/view';
import { tags as t } from '@lezer/highlight';
import CodeMirror from '@uiw/react-codemirror';
import { useEffect, useImperativeHandle, useMemo, useState } from 'react';

import { useThemeStore } from '../../../lib/theme';
import type { TCodeEditorProps } from './code-editor-types';

// Light mode's token colours, each at least 4.5:1 on the editor's white and on its active line
// (CodeMirror's default style has some below, e.g. red for invalid markup); dark mode keeps the
// dark theme's own.
const lightHighlight = HighlightStyle.define([
  { tag: [t.tagName, t.angleBracket], color: '#116329' },
  { tag: [t.attributeName, t.propertyName, t.number, t.atom, t.bool], color: '#0550ae' },
  { tag: [t.attributeValue, t.string, t.special(t.string), t.regexp, t.url, t.link], color: '#0a3069' },
  { tag: [t.comment, t.meta, t.documentMeta, t.processingInstruction], color: '#57606a' },
  { tag: [t.keyword, t.operator, t.modifier], color: '#8250df' },
  { tag: [t.invalid, t.deleted], color: '#a40e26' },
  { tag: [t.inserted], color: '#116329' },
  { tag: [t.changed, t.escape, t.character], color: '#953800' },
  {
    tag: [t.variableName, t.typeName, t.className, t.labelName, t.definition(t.variableName), t.content],
    color: '#1f2328',
  },
  { tag: t.heading, color: '#0550ae', fontWeight: 'bold' },
]);

const baseExtensions = [
  html({ matchClosingTags: true, autoCloseTags: true }),
  lintGutter(),
  EditorView.lineWrapping,
];

export function CodeEditor({ value, onChange, readOnly, errors, label, handleRef }: TCodeEditorProps) {
  const [view, setView] = useState<EditorView | null>(null);
  // The editor's own light or dark theme, following the app's: its text never inherits the app's
  // colour onto a background of the other mode.
  const theme = useThemeStore((state) => state.resolved);
  const extensions = useMemo(
    () => [
      ...baseExtensions,
      ...(theme === 'light' ? [syntaxHighlighting(lightHighlight)] : []),
      EditorView.contentAttributes.of({ 'aria-label': label }),
    ],
    [label, theme],
  );

  // The server's errors as diagnostics on their lines (a line past the end is left to the list).
  useEffect(() => {
    if (!view) return;
    const doc = view.state.doc;
    const marks: Diagnostic[] = errors
      .filter((e) => e.line !== null && e.line >= 1 && e.line <= doc.lines)
      .map((e) => {
        const line = doc.line(e.line!);
        return { from: line.from, to: line.to, severity: 'error', message: e.message };
      });
    view.dispatch(setDiagnostics(view.state, marks));
  }, [view, errors, value]);

  useImperativeHandle(
    handleRef,
    () => ({
      insert(text: string) {
        if (!view) {
          onChange(value + text);
          return;
        }
        const { from, to } = view.state.selection.main;
        view.dispatch({ changes: { from, to, insert: text }, selection: { anchor: from + text.length } });
        view.focus();
      },
      goToLine(n: number) {
        if (!view) return;
        const line = view.state.doc.line(Math.min(Math.max(n, 1), view.state.doc.lines));
        view.dispatch({
          selection: { anchor: line.from },
          effects: EditorView.scrollIntoView(line.from, { y: 'center' }),
        });
        view.focus();
      },
    }),
    [view, value, onChange],
  );

  return (
    <CodeMirror
      value={value}
      onChange={onChange}
      onCreateEditor={setView}
      readOnly={readOnly}
      editable={!readOnly}
      extensions={extensions}
      theme={theme}
      height="28rem"
      className="overflow-hidden rounded-md border text-sm"
      basicSetup={{ foldGutter: true, highlightActiveLine: !readOnly }}
    />
  );
}
