// The body of an own-channel (Titan Message) message (spec section 2): its text, or for a file the
// "Attachment Added" link to the signed URL with a preview: the picture itself for images, else the
// file's name and size.
import type { TMessage } from '@titan/contracts';
import { FileIcon } from 'lucide-react';

import { CONVERSATIONS_STRINGS as S } from '../strings';

function fileMeta(meta: Record<string, unknown>) {
  const read = (key: string) => (typeof meta[key] === 'string' ? (meta[key] as string) : null);
  return {
    fileName: read('file_name'),
    mimeType: read('mime_type'),
    size: typeof meta.size === 'number' ? meta.size : null,
  };
}

function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

export function OwnChannelContent({
  message,
}: {
  message: Pick<TMessage, 'message_type' | 'content' | 'meta_data'>;
}) {
  if (message.message_type !== 'file') {
    return <p className="text-sm break-words whitespace-pre-wrap">{message.content}</p>;
  }
  const { fileName, mimeType, size } = fileMeta(message.meta_data);
  const isImage = mimeType?.startsWith('image/') ?? false;
  return (
    <div className="flex flex-col gap-2">
      <a
        href={message.content}
        target="_blank"
        rel="noopener noreferrer"
        className="text-sm font-medium underline underline-offset-4"
      >
        {S.attachmentAdded}
      </a>
      {isImage ? (
        <a href={message.content} target="_blank" rel="noopener noreferrer" tabIndex={-1}>
          <img src={message.content} alt={fileName ?? ''} className="max-h-60 max-w-full rounded-md border" />
        </a>
      ) : (
        <span className="inline-flex items-center gap-2 rounded-md border bg-background/60 px-2 py-1.5 text-xs">
          <FileIcon aria-hidden="true" className="size-4 shrink-0" />
          <span className="truncate">{fileName ?? message.content}</span>
          {size !== null ? <span className="text-muted-foreground">{formatSize(size)}</span> : null}
        </span>
      )}
    </div>
  );
}
