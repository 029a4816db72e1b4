// The visual editor, loaded when the Visual view is first chosen (GrapesJS and MJML are large).
import { lazy, Suspense } from 'react';

import { SectionLoading } from '../../../components/load-state';
import type { TVisualEditorProps } from './visual-editor-types';

const VisualEditor = lazy(async () => ({ default: (await import('./visual-editor')).VisualEditor }));

export function LazyVisualEditor(props: TVisualEditorProps) {
  return (
    <Suspense fallback={<SectionLoading />}>
      <VisualEditor {...props} />
    </Suspense>
  );
}
