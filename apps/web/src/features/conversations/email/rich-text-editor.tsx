// The email composer's rich text (TipTap on ProseMirror): bold, italic, underline, lists, quote and
// links from a toolbar or the usual shortcuts; the composer reads HTML and a plain-text part from it.
// Ctrl/⌘+Enter sends (Enter starts a new paragraph, as in a mail client).
import { EditorContent, useEditorState, type Editor } from '@tiptap/react';
import {
  BoldIcon,
  ItalicIcon,
  LinkIcon,
  ListIcon,
  ListOrderedIcon,
  QuoteIcon,
  UnderlineIcon,
  type LucideIcon,
} from 'lucide-react';

import { toggleVariants } from '../../../components/ui/toggle';
import { IconTooltip } from '../../../components/ui/tooltip';
import { cn } from '../../../lib/utils';
import { EMAIL_STRINGS as S } from './strings';

type TMark = 'bold' | 'italic' | 'underline' | 'bulletList' | 'orderedList' | 'blockquote' | 'link';

const BUTTONS: { mark: TMark; label: string; icon: LucideIcon; run: (editor: Editor) => void }[] = [
  { mark: 'bold', label: S.bold, icon: BoldIcon, run: (e) => e.chain().focus().toggleBold().run() },
  { mark: 'italic', label: S.italic, icon: ItalicIcon, run: (e) => e.chain().focus().toggleItalic().run() },
  {
    mark: 'underline',
    label: S.underline,
    icon: UnderlineIcon,
    run: (e) => e.chain().focus().toggleUnderline().run(),
  },
  {
    mark: 'bulletList',
    label: S.bulletList,
    icon: ListIcon,
    run: (e) => e.chain().focus().toggleBulletList().run(),
  },
  {
    mark: 'orderedList',
    label: S.orderedList,
    icon: ListOrderedIcon,
    run: (e) => e.chain().focus().toggleOrderedList().run(),
  },
  {
    mark: 'blockquote',
    label: S.quote,
    icon: QuoteIcon,
    run: (e) => e.chain().focus().toggleBlockquote().run(),
  },
  {
    mark: 'link',
    label: S.link,
    icon: LinkIcon,
    run: (e) => {
      if (e.isActive('link')) {
        e.chain().focus().extendMarkRange('link').unsetLink().run();
        return;
      }
      const href = window.prompt(S.linkPrompt)?.trim();
      if (!href) return;
      const url = /^(https?:|mailto:)/i.test(href) ? href : `https://${href}`;
      e.chain().focus().extendMarkRange('link').setLink({ href: url }).run();
    },
  },
];

export function RichTextEditor({ editor, className }: { editor: Editor | null; className?: string }) {
  const active = useEditorState({
    editor,
    selector: ({ editor: e }) =>
      Object.fromEntries(BUTTONS.map((b) => [b.mark, e?.isActive(b.mark) ?? false])) as Record<
        TMark,
        boolean
      >,
  });
  return (
    <div
      className={cn(
        'rounded-md border border-input shadow-xs focus-within:border-ring focus-within:ring-[3px] focus-within:ring-ring/50 dark:bg-input/30',
        className,
      )}
    >
      <div role="toolbar" aria-label={S.composer} className="flex flex-wrap gap-0.5 border-b p-1">
        {BUTTONS.map(({ mark, label, icon: Icon, run }) => (
          <IconTooltip key={mark} label={label}>
            <button
              type="button"
              className={toggleVariants({ size: 'sm' })}
              aria-label={label}
              aria-pressed={active?.[mark] ?? false}
              data-state={active?.[mark] ? 'on' : 'off'}
              disabled={!editor}
              // Keeps the editor's selection: the mark applies to what was selected.
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => editor && run(editor)}
            >
              <Icon aria-hidden="true" />
            </button>
          </IconTooltip>
        ))}
      </div>
      <EditorContent editor={editor} />
    </div>
  );
}
