// The composer of a WhatsApp conversation (spec sections 2, 4, 8). While the 24-hour window is open:
// text through the WhatsApp send route (Enter sends, Shift+Enter starts a new line); a file picked
// from the attach menu is uploaded at once and its id sent with the next send, the typed text as its
// caption; a reply quotes the message above the box and sends its wamid as context; the time left in
// the window is shown above the box (amber in its last hour). Once the window
// has closed, only an approved template may be sent, so the template picker takes the box's place.
import type { TConversation, TMessage, TWhatsappMediaUpload, TWhatsappSendRequest } from '@titan/contracts';
import { SendHorizontalIcon, XIcon } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { toast } from 'sonner';

import { Button } from '../../../components/ui/button';
import { cn } from '../../../lib/utils';
import { apiErrorMessage, isHandledApiError } from '../../../lib/api-errors';
import { useWhatsappWindow } from '../api/get-whatsapp-window';
import { useSendWhatsappMessage } from '../api/send-whatsapp-message';
import { useUploadWhatsappMedia } from '../../../lib/whatsapp/upload-media';
import { CONVERSATIONS_STRINGS as S } from '../strings';
import { messageSummary, senderName } from '../utils/display';
import { sendFailureMessage } from '../utils/send-failure';
import { MessageBox } from './message-box';
import { AttachmentChip, WhatsAppAttachMenu } from './whatsapp-attach-menu';
import { cannedAttachmentFile, type TCannedAttachment } from '../canned/canned-picker';
import { CANNED_PICKER_STRINGS } from '../canned/strings';
import { WhatsAppTemplatePicker } from './whatsapp-template-picker';
import { IconTooltip } from '../../../components/ui/tooltip';
import { useTypingNotifier } from '../hooks/use-typing';

type TAttachment = { file: File; media: TWhatsappMediaUpload | null };
type TContext = { message_id: string } | undefined;

function textBody(body: string, context: TContext): TWhatsappSendRequest {
  return { recipient_type: 'individual', type: 'text', text: { body }, ...(context ? { context } : {}) };
}

/** The media message; audio takes no caption on WhatsApp, so its text goes separately. */
function mediaBody(media: TWhatsappMediaUpload, caption: string, context: TContext): TWhatsappSendRequest {
  const base = { recipient_type: 'individual' as const, ...(context ? { context } : {}) };
  const withCaption = caption ? { caption } : {};
  switch (media.type) {
    case 'image':
      return { ...base, type: 'image', image: { id: media.id, ...withCaption } };
    case 'video':
      return { ...base, type: 'video', video: { id: media.id, ...withCaption } };
    case 'audio':
      return { ...base, type: 'audio', audio: { id: media.id } };
    case 'document':
      return {
        ...base,
        type: 'document',
        document: { id: media.id, ...withCaption, ...(media.file_name ? { filename: media.file_name } : {}) },
      };
    default: {
      const unreachable: never = media.type;
      return unreachable;
    }
  }
}

function ReplyBar({
  message,
  conversation,
  onCancel,
}: {
  message: TMessage;
  conversation: TConversation;
  onCancel: () => void;
}) {
  const label = S.replyingTo(senderName(message, conversation));
  return (
    <div
      role="group"
      aria-label={label}
      className="flex items-start gap-2 rounded-md border-l-2 border-primary bg-muted px-3 py-1.5 text-xs"
    >
      <div className="min-w-0 flex-1">
        <p className="font-medium">{label}</p>
        <p className="truncate text-muted-foreground">{messageSummary(message)}</p>
      </div>
      <button
        type="button"
        aria-label={S.cancelReply}
        onClick={onCancel}
        className="rounded-full p-0.5 hover:bg-accent"
      >
        <XIcon aria-hidden="true" className="size-3.5" />
      </button>
    </div>
  );
}

/** "Window closes in 3 h 20 min": the open 24-hour window's time left, counted down each minute. */
function WindowTimeLeft({ expiresAt }: { expiresAt: string }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 60_000);
    return () => clearInterval(timer);
  }, []);
  const minutes = Math.max(0, Math.ceil((new Date(expiresAt).getTime() - now) / 60_000));
  return (
    <p
      data-testid="whatsapp-window"
      className={cn(
        'text-xs',
        minutes <= 60 ? 'text-amber-700 dark:text-amber-300' : 'text-muted-foreground',
      )}
    >
      {S.windowOpen(minutes)}
    </p>
  );
}

function WhatsAppFreeForm({
  conversation,
  replyTo,
  onClearReply,
  expiresAt,
}: {
  conversation: TConversation;
  replyTo: TMessage | null;
  onClearReply: () => void;
  expiresAt: string | null;
}) {
  const [text, setText] = useState('');
  const [attachment, setAttachment] = useState<TAttachment | null>(null);
  const [sending, setSending] = useState(false);
  // Each pick gets a number: an upload that finishes after its chip was removed (or replaced) is
  // dropped.
  const uploadSeq = useRef(0);
  const upload = useUploadWhatsappMedia();
  const send = useSendWhatsappMessage();
  const notifyTyping = useTypingNotifier(conversation.id);
  const uploading = attachment !== null && attachment.media === null;

  const attach = (file: File) => {
    uploadSeq.current += 1;
    const seq = uploadSeq.current;
    setAttachment({ file, media: null });
    upload.mutate(file, {
      onSuccess: (media) => {
        if (uploadSeq.current === seq) setAttachment({ file, media });
      },
      onError: (error) => {
        if (uploadSeq.current !== seq) return;
        setAttachment(null);
        if (!isHandledApiError(error)) toast.error(apiErrorMessage(error, S.whatsappUploadFailed));
      },
    });
  };

  const removeAttachment = () => {
    uploadSeq.current += 1;
    setAttachment(null);
  };

  // A canned response's file is fetched and uploaded as WhatsApp media, as a picked file is.
  const attachCanned = (canned: TCannedAttachment) =>
    void cannedAttachmentFile(canned).then(attach, () => toast.error(CANNED_PICKER_STRINGS.failed));

  const submit = async () => {
    if (sending || uploading) return;
    const typed = text;
    const body = typed.trim();
    const media = attachment?.media ?? null;
    if (!body && !media) return;
    const context: TContext = replyTo ? { message_id: String(replyTo.id) } : undefined;
    const deliver = (request: TWhatsappSendRequest) =>
      send.mutateAsync({ conversationId: conversation.id, body: request });
    setSending(true);
    try {
      if (media) {
        await deliver(mediaBody(media, body, context));
        setAttachment((current) => (current?.media?.id === media.id ? null : current));
        if (media.type === 'audio' && body) await deliver(textBody(body, undefined));
      } else {
        await deliver(textBody(body, context));
      }
      // Whatever was typed meanwhile stays.
      setText((current) => (current === typed ? '' : current));
      onClearReply();
    } catch (error) {
      const message = sendFailureMessage(error);
      if (message) toast.error(message);
    } finally {
      setSending(false);
    }
  };

  const nothingToSend = text.trim() === '' && !attachment?.media;
  return (
    <div className="flex flex-col gap-2 border-t p-3">
      {expiresAt ? <WindowTimeLeft expiresAt={expiresAt} /> : null}
      {replyTo ? <ReplyBar message={replyTo} conversation={conversation} onCancel={onClearReply} /> : null}
      {attachment ? (
        <AttachmentChip name={attachment.file.name} uploading={uploading} onRemove={removeAttachment} />
      ) : null}
      <div className="flex items-end gap-2">
        <WhatsAppAttachMenu onAttach={attach} />
        <MessageBox
          value={text}
          onChange={(value) => {
            setText(value);
            notifyTyping(value);
          }}
          onSubmit={() => void submit()}
          canned={{ conversationId: conversation.id, onAttachment: attachCanned }}
        />
        <IconTooltip label={S.send}>
          <Button
            type="button"
            size="icon"
            aria-label={S.send}
            disabled={nothingToSend || uploading || sending}
            onClick={() => void submit()}
          >
            <SendHorizontalIcon aria-hidden="true" />
          </Button>
        </IconTooltip>
      </div>
    </div>
  );
}

export function WhatsAppComposer({
  conversation,
  replyTo,
  onClearReply,
}: {
  conversation: TConversation;
  replyTo: TMessage | null;
  onClearReply: () => void;
}) {
  const serviceWindow = useWhatsappWindow(conversation.id);
  // Until the window is known the box is offered: a send into a closed window answers 409, which
  // fetches the window again.
  if (serviceWindow.data && !serviceWindow.data.open)
    return <WhatsAppTemplatePicker conversationId={conversation.id} />;
  return (
    <WhatsAppFreeForm
      conversation={conversation}
      replyTo={replyTo}
      onClearReply={onClearReply}
      expiresAt={serviceWindow.data?.expires_at ?? null}
    />
  );
}
