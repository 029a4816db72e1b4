// The template source editor: CodeMirror 6 with HTML highlighting (MJML reads as markup too), the
// server's errors marked at their lines, and a handle to insert text at the cursor or go to a line.
// Loaded on its own (lazy-code-editor.tsx), so CodeMirror stays out of every other screen's bundle.
import { html } from '@codemirror/lang-html';
import { HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { lintGutter, setDiagnostics, type Diagnostic } from '@codemirror/lint';
import { oneDarkTheme } from '@codemirror/theme-one-dark';
import { EditorView } from '@codemirror/view';
import { tags as t } from '@lezer/highlight';
import CodeMirror from '@uiw/react-codemirror';
import { useEffect, useImperativeHandle, useMemo, useState } from 'react';

import { useThemeStore } from '../../../lib/theme';
import type { TCodeEditorProps } from './code-editor-types';

// Token colours for both modes, each at least 4.5:1 on the editor's background, its active line
// and a selection (CodeMirror's default light style and the one-dark theme both have colours below:
// red for invalid markup; one-dark's coral tags, violet keywords and grey comments are about 4:1).
// Dark mode takes one-dark's editor theme (without its highlight style, so no two styles compete for
// a token) and its hues, lightened.
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

const DARK_MUTED = '#b6bdc9';
const darkHighlight = HighlightStyle.define([
  { tag: [t.tagName, t.angleBracket], color: '#f29ca3' },
  { tag: [t.attributeName, t.propertyName, t.number, t.atom, t.bool], color: '#e3b07f' },
  { tag: [t.attributeValue, t.string, t.special(t.string), t.regexp, t.url, t.link], color: '#a9d18b' },
  { tag: [t.comment, t.meta, t.documentMeta, t.processingInstruction], color: DARK_MUTED },
  { tag: [t.keyword, t.operator, t.modifier], color: '#dba2ea' },
  { tag: [t.invalid, t.deleted], color: '#ffffff' },
  { tag: [t.inserted], color: '#a9d18b' },
  { tag: [t.changed, t.escape, t.character], color: '#6cc3cf' },
  {
    tag: [t.variableName, t.typeName, t.className, t.labelName, t.definition(t.variableName), t.content],
    color: '#d7dae0',
  },
  { tag: t.heading, color: '#7cc4f7', fontWeight: 'bold' },
]);
const darkGutters = EditorView.theme(
  {
    '.cm-gutters': { color: DARK_MUTED },
    '.cm-gutterElement': { color: DARK_MUTED },
    '.cm-activeLineGutter': { color: '#d7dae0' },
  },
  { dark: true },
);

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
      ...(theme === 'light'
        ? [syntaxHighlighting(lightHighlight)]
        : [syntaxHighlighting(darkHighlight), darkGutters]),
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
      theme={theme === 'light' ? 'light' : oneDarkTheme}
      height="28rem"
      className="overflow-hidden rounded-md border text-sm"
      basicSetup={{ foldGutter: true, highlightActiveLine: !readOnly }}
    />
  );
}
