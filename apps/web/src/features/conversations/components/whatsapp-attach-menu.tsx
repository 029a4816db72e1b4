// The WhatsApp attach menu (spec section 2, with audio from the spec's type hints and send payload):
// Image, Video, Audio or Document, each picking a file of the
// kinds WhatsApp takes (spec section 5 type hints); the picked file shows as a removable chip. The
// input is emptied after every pick, so a failed upload leaves it reset and the same file can be
// picked again.
import { FileTextIcon, ImageIcon, MicIcon, PaperclipIcon, VideoIcon, XIcon } from 'lucide-react';
import { useRef, useState } from 'react';

import { Button } from '../../../components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from '../../../components/ui/dropdown-menu';
import { Spinner } from '../../../components/ui/spinner';
import { CONVERSATIONS_STRINGS as S } from '../strings';
import { WHATSAPP_ACCEPT, type TWhatsAppAttachKind } from '../utils/composer';
import { IconTooltip } from '../../../components/ui/tooltip';

const ITEMS = [
  { kind: 'image', icon: ImageIcon },
  { kind: 'video', icon: VideoIcon },
  { kind: 'audio', icon: MicIcon },
  { kind: 'document', icon: FileTextIcon },
] as const;

export function WhatsAppAttachMenu({ onAttach }: { onAttach: (file: File) => void }) {
  const input = useRef<HTMLInputElement>(null);
  const [kind, setKind] = useState<TWhatsAppAttachKind>('document');
  return (
    <>
      <input
        ref={input}
        type="file"
        className="hidden"
        accept={WHATSAPP_ACCEPT[kind] || undefined}
        data-testid="whatsapp-attachment-input"
        onChange={(event) => {
          const picked = event.target.files?.[0];
          event.target.value = '';
          if (picked) onAttach(picked);
        }}
      />
      <DropdownMenu>
        <IconTooltip label={S.attach}>
          <DropdownMenuTrigger asChild>
            <Button type="button" variant="ghost" size="icon" aria-label={S.attach}>
              <PaperclipIcon aria-hidden="true" />
            </Button>
          </DropdownMenuTrigger>
        </IconTooltip>
        <DropdownMenuContent align="start">
          {ITEMS.map(({ kind: item, icon: Icon }) => (
            <DropdownMenuItem
              key={item}
              onSelect={() => {
                setKind(item);
                // The accept list must be in place before the picker opens.
                if (input.current) input.current.accept = WHATSAPP_ACCEPT[item];
                input.current?.click();
              }}
            >
              <Icon aria-hidden="true" />
              {S.whatsappAttach[item]}
            </DropdownMenuItem>
          ))}
        </DropdownMenuContent>
      </DropdownMenu>
    </>
  );
}

export function AttachmentChip({
  name,
  uploading = false,
  onRemove,
}: {
  name: string;
  uploading?: boolean;
  onRemove: () => void;
}) {
  return (
    <span
      aria-busy={uploading || undefined}
      className="inline-flex w-fit max-w-full items-center gap-1.5 rounded-full border bg-muted px-3 py-1 text-xs"
    >
      {uploading ? (
        <Spinner aria-label={S.uploadingAttachment(name)} className="size-3.5 shrink-0" />
      ) : (
        <PaperclipIcon aria-hidden="true" className="size-3.5 shrink-0" />
      )}
      <span className="truncate">{name}</span>
      <button
        type="button"
        aria-label={S.removeAttachment(name)}
        onClick={onRemove}
        className="rounded-full p-0.5 hover:bg-accent"
      >
        <XIcon aria-hidden="true" className="size-3.5" />
      </button>
    </span>
  );
}
