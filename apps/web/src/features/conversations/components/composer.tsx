// The message composer (spec sections 2, 4, 5, 8). A text box growing up to 150 px ("Type a
// message..."): Enter sends, Shift+Enter starts a new line, blank text sends nothing. Own channel: the
// attach button picks a file (10 MB at most), the "Send Attachment" dialog confirms, then the file is
// uploaded and posted as a file message. WhatsApp: sending from Titan is not built yet, so the
// composer says so and sends nothing; the attach menu (Image, Video, Document) keeps its chip.
import type { TConversation } from '@titan/contracts';
import { PaperclipIcon, SendHorizontalIcon } from 'lucide-react';
import { useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { toast } from 'sonner';

import { Button } from '../../../components/ui/button';
import { apiErrorStatus, isHandledApiError } from '../../../lib/api-errors';
import { useSendMessage } from '../api/send-message';
import { fileSizeProblem, useUploadFile } from '../api/upload-file';
import { CONVERSATIONS_STRINGS as S } from '../strings';
import { COMPOSER_MAX_HEIGHT_PX } from '../utils/composer';
import { SendAttachmentDialog } from './send-attachment-dialog';
import { AttachmentChip, WhatsAppAttachMenu } from './whatsapp-attach-menu';

const PAYLOAD_TOO_LARGE = 413;

function useAutoGrow(value: string) {
  const ref = useRef<HTMLTextAreaElement>(null);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    el.style.height = 'auto';
    const height = Math.min(el.scrollHeight, COMPOSER_MAX_HEIGHT_PX);
    el.style.height = `${height}px`;
    el.style.overflowY = el.scrollHeight > COMPOSER_MAX_HEIGHT_PX ? 'auto' : 'hidden';
  }, [value]);
  return ref;
}

function MessageBox({
  value,
  onChange,
  onSubmit,
  disabled,
}: {
  value: string;
  onChange: (value: string) => void;
  onSubmit: () => void;
  disabled?: boolean;
}) {
  const ref = useAutoGrow(value);
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    onSubmit();
  };
  return (
    <textarea
      ref={ref}
      rows={1}
      value={value}
      disabled={disabled}
      aria-label={S.messageLabel}
      placeholder={S.placeholder}
      onChange={(event) => onChange(event.target.value)}
      onKeyDown={onKeyDown}
      style={{ maxHeight: COMPOSER_MAX_HEIGHT_PX }}
      className="min-h-9 flex-1 resize-none rounded-md border border-input bg-transparent px-3 py-2 text-sm shadow-xs outline-none focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50 disabled:cursor-not-allowed disabled:opacity-50 dark:bg-input/30"
    />
  );
}

function OwnChannelComposer({ conversation }: { conversation: TConversation }) {
  const [text, setText] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [sendingFile, setSendingFile] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const send = useSendMessage();
  const upload = useUploadFile();

  const sendText = () => {
    const content = text.trim();
    if (!content || send.isPending) return;
    send.mutate(
      { conversationId: conversation.id, message_type: 'text', content },
      {
        // Whatever was typed meanwhile stays.
        onSuccess: () => setText((current) => (current === text ? '' : current)),
        onError: (error) => {
          if (!isHandledApiError(error)) toast.error(S.sendFailed);
        },
      },
    );
  };

  const sendFile = async () => {
    if (!file) return;
    setSendingFile(true);
    try {
      let key: string;
      try {
        key = (await upload.mutateAsync({ file, conversationId: conversation.id })).key;
      } catch (error) {
        if (!isHandledApiError(error))
          toast.error(apiErrorStatus(error) === PAYLOAD_TOO_LARGE ? S.fileTooLarge : S.uploadFailed);
        return;
      }
      toast.success(S.uploadSucceeded);
      try {
        await send.mutateAsync({ conversationId: conversation.id, message_type: 'file', content: key });
      } catch (error) {
        if (!isHandledApiError(error)) toast.error(S.sendFailed);
      }
    } finally {
      setSendingFile(false);
      setFile(null);
    }
  };

  return (
    <div className="flex items-end gap-2 border-t p-3">
      <input
        ref={fileInput}
        type="file"
        className="hidden"
        data-testid="attachment-input"
        onChange={(event) => {
          const picked = event.target.files?.[0] ?? null;
          // Picking the same file again must fire change again.
          event.target.value = '';
          if (!picked) return;
          const problem = fileSizeProblem(picked);
          if (problem) {
            toast.error(problem);
            return;
          }
          setFile(picked);
        }}
      />
      <Button
        type="button"
        variant="ghost"
        size="icon"
        aria-label={S.attach}
        onClick={() => fileInput.current?.click()}
      >
        <PaperclipIcon aria-hidden="true" />
      </Button>
      <MessageBox value={text} onChange={setText} onSubmit={sendText} />
      <Button
        type="button"
        size="icon"
        aria-label={S.send}
        disabled={text.trim() === '' || send.isPending}
        onClick={sendText}
      >
        <SendHorizontalIcon aria-hidden="true" />
      </Button>
      <SendAttachmentDialog
        file={file}
        sending={sendingFile}
        onCancel={() => setFile(null)}
        onSend={() => void sendFile()}
      />
    </div>
  );
}

function WhatsAppComposer() {
  const [attachment, setAttachment] = useState<File | null>(null);
  return (
    <div className="flex flex-col gap-2 border-t p-3">
      <p role="note" className="text-xs text-muted-foreground">
        {S.whatsappNotYet}
      </p>
      {attachment ? <AttachmentChip file={attachment} onRemove={() => setAttachment(null)} /> : null}
      <div className="flex items-end gap-2">
        <WhatsAppAttachMenu onAttach={setAttachment} />
        <MessageBox value="" onChange={() => {}} onSubmit={() => {}} disabled />
        <Button type="button" size="icon" aria-label={S.send} disabled>
          <SendHorizontalIcon aria-hidden="true" />
        </Button>
      </div>
    </div>
  );
}

export function Composer({ conversation }: { conversation: TConversation }) {
  return conversation.channel === 'whatsapp' ? (
    <WhatsAppComposer />
  ) : (
    <OwnChannelComposer key={conversation.id} conversation={conversation} />
  );
}
