// A WhatsApp image, video, audio or document, fetched by its media id (GET /api/whatsapp/media/{id}/).
// When the bytes cannot be had, or the browser cannot show them, the spec's failure text takes its
// place; a failed fetch also toasts, once per conversation view (use-media-failure-notice).
import { FileTextIcon } from 'lucide-react';
import { useEffect, useState } from 'react';

import { Spinner } from '../../../components/ui/spinner';
import { useWhatsAppMedia } from '../api/get-whatsapp-media';
import { useMediaFailureNotice } from '../hooks/use-media-failure-notice';
import { CONVERSATIONS_STRINGS as S } from '../strings';

export type TMediaKind = 'image' | 'video' | 'audio' | 'document';

function MediaFailed() {
  return <p className="text-sm text-muted-foreground italic">{S.mediaFailed}</p>;
}

export function WhatsAppMedia({
  kind,
  mediaId,
  fileName,
}: {
  kind: TMediaKind;
  mediaId: string;
  fileName?: string | null;
}) {
  const media = useWhatsAppMedia(mediaId);
  const [broken, setBroken] = useState(false);
  const notifyFailure = useMediaFailureNotice();
  const { isError, error } = media;
  useEffect(() => {
    if (isError) notifyFailure(error);
  }, [isError, error, notifyFailure]);
  if (media.isPending) return <Spinner />;
  if (media.isError || broken) return <MediaFailed />;
  const url = media.data.url;
  switch (kind) {
    case 'image':
      return (
        <img
          src={url}
          alt={fileName || S.whatsappAttach.image}
          className="max-h-72 max-w-full rounded-md"
          onError={() => setBroken(true)}
        />
      );
    case 'video':
      return (
        <video
          src={url}
          controls
          className="max-h-72 max-w-full rounded-md"
          onError={() => setBroken(true)}
        />
      );
    case 'audio':
      return <audio src={url} controls className="max-w-full" onError={() => setBroken(true)} />;
    case 'document':
      return (
        <a
          href={url}
          download={fileName ?? undefined}
          className="inline-flex items-center gap-2 text-sm font-medium underline underline-offset-4"
        >
          <FileTextIcon aria-hidden="true" className="size-4" />
          {fileName || S.whatsappAttach.document}
        </a>
      );
    default: {
      const unreachable: never = kind;
      return unreachable;
    }
  }
}
