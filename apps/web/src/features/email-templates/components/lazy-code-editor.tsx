// The code editor, loaded when first shown (CodeMirror is the heaviest part of the templates screen).
import { lazy, Suspense } from 'react';

import { Textarea } from '../../../components/ui/textarea';
import { EMAIL_TEMPLATE_STRINGS as S } from '../strings';
import type { TCodeEditorProps } from './code-editor-types';

const CodeEditor = lazy(async () => ({ default: (await import('./code-editor')).CodeEditor }));

export function LazyCodeEditor(props: TCodeEditorProps) {
  return (
    <Suspense
      fallback={
        <Textarea aria-label={S.editorLoading} value={props.value} readOnly rows={20} className="font-mono" />
      }
    >
      <CodeEditor {...props} />
    </Suspense>
  );
}
