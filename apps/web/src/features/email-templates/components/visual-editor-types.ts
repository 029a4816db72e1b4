// What the lazily loaded visual editor takes, so its callers need not load GrapesJS to know.
import type { RefObject } from 'react';

/** A block offered in the editor's Blocks panel: one section-level MJML fragment. */
export type TVisualBlock = { id: string; label: string; category: string; content: string };

/** What the template editor asks of the visual editor. */
export type TVisualEditorHandle = {
  /**
   * The MJML of the section around the selected element (`<mj-section>`, `<mj-wrapper>` or
   * `<mj-hero>`), what "Save as block" saves; null when nothing inside the body is selected.
   */
  selectedSection: () => string | null;
};

export type TVisualEditorProps = {
  /** The MJML being edited. */
  value: string;
  /** Every edit, as the whole MJML document. */
  onChange: (value: string) => void;
  label: string;
  /** Uploads an image for mail and answers its public URL. */
  uploadImage: (file: File) => Promise<string>;
  onUploadError: (error: unknown) => void;
  /** The brand's blocks and the business's saved blocks, beside the preset's own. */
  blocks?: TVisualBlock[];
  handleRef?: RefObject<TVisualEditorHandle | null>;
};
