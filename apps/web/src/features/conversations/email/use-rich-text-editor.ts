// The email composer's editor (TipTap on ProseMirror) and what the API takes from it: HTML and the
// text part. Ctrl/⌘+Enter submits (Enter starts a new paragraph, as in a mail client).
import { Placeholder } from '@tiptap/extensions';
import { useEditor, type Editor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { useLayoutEffect, useRef } from 'react';

import { EMAIL_STRINGS as S } from './strings';

export type TRichText = { html: string; text: string };

/** The editor's content as the API takes it: HTML, and the text part (paragraphs apart by a blank line). */
export function richTextOf(editor: Editor): TRichText {
  return { html: editor.getHTML(), text: editor.getText({ blockSeparator: '\n\n' }).trim() };
}

export function useRichTextEditor({
  onChange,
  onSubmit,
}: {
  onChange: (value: TRichText) => void;
  onSubmit: () => void;
}) {
  // The latest handlers, without rebuilding the editor when they change.
  const handlers = useRef({ onChange, onSubmit });
  useLayoutEffect(() => {
    handlers.current = { onChange, onSubmit };
  });
  return useEditor({
    extensions: [
      StarterKit.configure({
        heading: false,
        codeBlock: false,
        horizontalRule: false,
        link: { openOnClick: false, autolink: true, defaultProtocol: 'https' },
      }),
      Placeholder.configure({ placeholder: S.placeholder }),
    ],
    editorProps: {
      attributes: {
        role: 'textbox',
        'aria-multiline': 'true',
        'aria-label': S.body,
        class:
          'min-h-24 max-h-72 overflow-y-auto px-3 py-2 text-sm outline-none [&_a]:text-primary [&_a]:underline [&_blockquote]:border-l-4 [&_blockquote]:pl-3 [&_blockquote]:text-muted-foreground [&_ol]:list-decimal [&_ol]:pl-6 [&_p]:my-1 [&_ul]:list-disc [&_ul]:pl-6 [&_p.is-editor-empty:first-child]:before:pointer-events-none [&_p.is-editor-empty:first-child]:before:float-left [&_p.is-editor-empty:first-child]:before:h-0 [&_p.is-editor-empty:first-child]:before:text-muted-foreground [&_p.is-editor-empty:first-child]:before:content-[attr(data-placeholder)]',
      },
      handleKeyDown: (_view, event) => {
        if (event.key === 'Enter' && (event.metaKey || event.ctrlKey) && !event.isComposing) {
          event.preventDefault();
          handlers.current.onSubmit();
          return true;
        }
        return false;
      },
    },
    onUpdate: ({ editor }) => handlers.current.onChange(richTextOf(editor)),
  });
}
