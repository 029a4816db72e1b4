import { render, waitFor } from '@testing-library/react';
import { createRef, useState } from 'react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { CodeEditor } from '../components/code-editor';
import type { TCodeEditorHandle, TEditorError } from '../components/code-editor-types';

function Harness({
  errors,
  handle,
}: {
  errors: TEditorError[];
  handle: React.RefObject<TCodeEditorHandle | null>;
}) {
  const [value, setValue] = useState('<p>one</p>\n<p>two</p>\n{% iff x %}');
  return (
    <>
      <CodeEditor
        value={value}
        onChange={setValue}
        errors={errors}
        label="Template content"
        handleRef={handle}
      />
      <output data-testid="value">{value}</output>
    </>
  );
}

// jsdom lays nothing out: CodeMirror's measuring asks ranges for rectangles it has not got.
const rangeProto = Range.prototype as unknown as Record<string, unknown>;
const saved = { rects: rangeProto.getClientRects, box: rangeProto.getBoundingClientRect };
beforeAll(() => {
  rangeProto.getClientRects = () => ({ length: 0, item: () => null, [Symbol.iterator]: [][Symbol.iterator] });
  rangeProto.getBoundingClientRect = () => new DOMRect();
});
afterAll(() => {
  rangeProto.getClientRects = saved.rects;
  rangeProto.getBoundingClientRect = saved.box;
});

describe('CodeEditor (CodeMirror)', () => {
  it('shows the source, marks error lines, and inserts at the cursor', async () => {
    const handle = createRef<TCodeEditorHandle | null>();
    const { container, getByTestId, getByRole } = render(
      <Harness errors={[{ line: 3, message: "Line 3: unknown tag 'iff'" }]} handle={handle} />,
    );
    await waitFor(() => expect(container.querySelector('.cm-content')).not.toBeNull());
    expect(getByRole('textbox', { name: 'Template content' }).textContent).toContain('<p>one</p>');
    await waitFor(() => expect(container.querySelector('.cm-lint-marker-error')).not.toBeNull());
    handle.current!.goToLine(2);
    handle.current!.insert('<img src="x" />');
    await waitFor(() =>
      expect(getByTestId('value').textContent).toBe('<p>one</p>\n<img src="x" /><p>two</p>\n{% iff x %}'),
    );
  });
});
