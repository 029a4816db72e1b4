// The visual block editor for MJML templates: GrapesJS with its MJML preset (grapesjs-mjml), loaded
// only when the Visual view is chosen (the two weigh about 2.4 MB minified). It edits the same MJML
// the code view shows and templates store: the source goes in as the editor's components, and every
// edit comes back out as MJML (editor.getHtml() under the preset), so previews, test sends and
// campaigns render it as before. Images upload through the template images API from the editor's
// asset manager. Why GrapesJS: docs/design/email-visual-editor.md.
import grapesjs, { type Editor } from 'grapesjs';
import grapesjsMjml from 'grapesjs-mjml';
import 'grapesjs/dist/css/grapes.min.css';
import { useEffect, useRef } from 'react';

import type { TVisualEditorProps } from './visual-editor-types';

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

function filesOf(event: DragEvent | Event): File[] {
  const dropped = (event as DragEvent).dataTransfer?.files;
  const picked = (event.target as HTMLInputElement | null)?.files;
  return [...(dropped ?? picked ?? [])];
}

export function VisualEditor({ value, onChange, label, uploadImage, onUploadError }: TVisualEditorProps) {
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
      editor.on('update', () => {
        const mjml = editor.getHtml();
        if (mjml === known.current) return;
        known.current = mjml;
        callbacks.current.onChange(mjml);
      });
    });
    return () => {
      editorRef.current = null;
      editor.destroy();
    };
  }, []);

  useEffect(() => {
    const editor = editorRef.current;
    if (!editor || value === known.current) return;
    known.current = value;
    editor.setComponents(value);
  }, [value]);

  return (
    <div role="group" aria-label={label} className="overflow-hidden rounded-md border text-sm">
      <div ref={container} />
    </div>
  );
}
