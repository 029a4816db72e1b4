// What the lazily loaded visual editor takes, so its callers need not load GrapesJS to know.
export type TVisualEditorProps = {
  /** The MJML being edited. */
  value: string;
  /** Every edit, as the whole MJML document. */
  onChange: (value: string) => void;
  label: string;
  /** Uploads an image for mail and answers its public URL. */
  uploadImage: (file: File) => Promise<string>;
  onUploadError: (error: unknown) => void;
};
