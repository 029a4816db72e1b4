// The visual block editor for MJML templates: GrapesJS with its MJML preset (grapesjs-mjml), loaded
// only when the Visual view is chosen (the two weigh about 2.4 MB minified). It edits the same MJML
// the code view shows and templates store: the source goes in as the editor's components, and every
// edit comes back out as MJML (editor.getHtml() under the preset), so previews, test sends and
// campaigns render it as before. Images upload through the template images API from the editor's
// asset manager. The brand's blocks and the business's saved blocks join the preset's in the Blocks
// panel; a click on a block adds it after the selected section (or at the end of the mail), as well
// as dragging it. Why GrapesJS: docs/design/campaigns.md, "The visual email editor".
import grapesjs, { type Component, type Editor } from 'grapesjs';
import grapesjsMjml from 'grapesjs-mjml';
import 'grapesjs/dist/css/grapes.min.css';
import './visual-editor.css';
import { useEffect, useRef } from 'react';

import { EMAIL_TEMPLATE_STRINGS as S } from '../strings';
import type { TVisualBlock, TVisualEditorProps } from './visual-editor-types';

const EDITOR_HEIGHT = '640px';

/**
 * Words for the panel buttons GrapesJS draws with Font Awesome classes: its icon font would come
 * from a CDN, which the app's content security policy (font-src 'self') and self-hosting rule out.
 */
const BUTTON_WORDS: Record<string, string> = {
  'sw-visibility': 'Outlines',
  preview: 'Preview',
  fullscreen: 'Full screen',
  'export-template': 'MJML',
  'open-sm': 'Style',
  'open-tm': 'Props',
  'open-layers': 'Layers',
  'open-blocks': 'Blocks',
};

/** The section-level elements of MJML: what a block is, and what "Save as block" saves. */
const SECTION_TYPES = ['mj-section', 'mj-wrapper', 'mj-hero'];
/** Block ids Titan adds, so a new list of blocks replaces only them. */
const OWN_BLOCK_PREFIX = 'titan-';

function sectionOf(component: Component | undefined): Component | undefined {
  let at = component;
  while (at && !SECTION_TYPES.includes(at.get('type') ?? '')) at = at.parent();
  return at;
}

/** A click on a block: after the selected section, or at the end of the body. */
function appendBlock(editor: Editor, content: string) {
  const section = sectionOf(editor.getSelected());
  const parent = section?.parent();
  if (section && parent) {
    parent.components().add(content, { at: section.index() + 1 });
    return;
  }
  const body = editor.getWrapper()?.findType('mj-body')[0];
  body?.append(content);
}

function filesOf(event: DragEvent | Event): File[] {
  const dropped = (event as DragEvent).dataTransfer?.files;
  const picked = (event.target as HTMLInputElement | null)?.files;
  return [...(dropped ?? picked ?? [])];
}

export function VisualEditor({
  value,
  onChange,
  label,
  uploadImage,
  onUploadError,
  blocks,
  handleRef,
}: TVisualEditorProps) {
  const container = useRef<HTMLDivElement>(null);
  const editorRef = useRef<Editor | null>(null);
  // The MJML last handed out (or taken in): a value that differs came from outside (a restored
  // version, a generated template) and is loaded into the editor.
  const known = useRef(value);
  const callbacks = useRef({ onChange, uploadImage, onUploadError });

  useEffect(() => {
    callbacks.current = { onChange, uploadImage, onUploadError };
  }, [onChange, uploadImage, onUploadError]);

  useEffect(() => {
    const editor = grapesjs.init({
      container: container.current!,
      height: EDITOR_HEIGHT,
      fromElement: false,
      storageManager: false,
      // GrapesJS reports its use to app.grapesjs.com unless told not to: nothing of a business's
      // screen leaves Titan (and the content policy would refuse the connection anyway).
      telemetry: false,
      cssIcons: '',
      components: known.current,
      plugins: [grapesjsMjml],
      blockManager: {
        appendOnClick: (block, ed) => {
          const content = block.get('content');
          if (typeof content === 'string') appendBlock(ed, content);
        },
      },
      assetManager: {
        upload: false,
        uploadFile: async (event: DragEvent | Event) => {
          for (const file of filesOf(event)) {
            try {
              const url = await callbacks.current.uploadImage(file);
              editor.AssetManager.add({ src: url, type: 'image' });
            } catch (error) {
              callbacks.current.onUploadError(error);
            }
          }
        },
      },
    });
    editorRef.current = editor;
    if (handleRef) {
      handleRef.current = {
        selectedSection: () => sectionOf(editor.getSelected())?.toHTML() ?? null,
      };
    }
    for (const panel of editor.Panels.getPanels()) {
      for (const button of panel.buttons) {
        const words = BUTTON_WORDS[button.id];
        if (!words || button.get('label')) continue;
        button.set({
          label: words,
          className: 'px-0.5 text-[11px]',
          attributes: { ...button.get('attributes'), title: words },
        });
      }
    }
    // Edits only: loading the source is not a change.
    editor.on('load', () => {
      // The blocks are what a first-time user needs to see, not an empty style manager.
      editor.Panels.getButton('views', 'open-blocks')?.set('active', true);
      // Named for screen readers; the side panel and the option bar scroll, so keyboards must reach them.
      editor.Canvas.getFrameEl()?.setAttribute('title', S.visualCanvas);
      for (const panel of container.current?.querySelectorAll('.gjs-pn-views-container, .gjs-pn-options') ??
        []) {
        panel.setAttribute('tabindex', '0');
      }
      editor.on('update', () => {
        const mjml = editor.getHtml();
        if (mjml === known.current) return;
        known.current = mjml;
        callbacks.current.onChange(mjml);
      });
    });
    return () => {
      editorRef.current = null;
      if (handleRef) handleRef.current = null;
      editor.destroy();
    };
    // The handle ref is the caller's, stable for the editor's life.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    const editor = editorRef.current;
    if (!editor) return;
    for (const block of [...editor.Blocks.getAll()]) {
      if (String(block.getId()).startsWith(OWN_BLOCK_PREFIX)) editor.Blocks.remove(block.getId());
    }
    for (const block of blocks ?? ([] as TVisualBlock[])) {
      editor.Blocks.add(`${OWN_BLOCK_PREFIX}${block.id}`, {
        label: block.label,
        category: block.category,
        content: block.content,
        attributes: { title: block.label },
      });
    }
  }, [blocks]);

  useEffect(() => {
    const editor = editorRef.current;
    if (!editor || value === known.current) return;
    known.current = value;
    editor.setComponents(value);
  }, [value]);

  return (
    <div
      role="group"
      aria-label={label}
      className="titan-visual-editor overflow-hidden rounded-md border text-sm"
    >
      <div ref={container} />
    </div>
  );
}
