// The message composer (spec sections 2, 4, 5, 8): blank text sends nothing. Own channel: the attach
// button picks a file (10 MB at most), the "Send Attachment" dialog confirms, then the file is
// uploaded and posted as a file message. WhatsApp conversations get the WhatsApp composer, email
// ones the email composer (email/email-composer.tsx).
import {
  MMS_MAX_BYTES,
  MMS_TYPES,
  smsSegments,
  UPLOAD_TIMEOUT_MS,
  ZEnvelope,
  ZUploadResult,
  type TConversation,
  type TMessage,
  type TUploadResult,
} from '@titan/contracts';
import { useMutation } from '@tanstack/react-query';
import { ImageIcon, PaperclipIcon, SendHorizontalIcon } from 'lucide-react';
import { useRef, useState } from 'react';
import { toast } from 'sonner';

import { Button } from '../../../components/ui/button';
import { apiErrorStatus, describeApiFailure, isHandledApiError } from '../../../lib/api-errors';
import { useSendMessage } from '../api/send-message';
import { fileSizeProblem, UPLOAD_PATH, useUploadFile } from '../api/upload-file';
import { protectedClient } from '../../../lib/protected-client';
import { CONVERSATIONS_STRINGS as S } from '../strings';
import { MessageBox } from './message-box';
import { SendAttachmentDialog } from './send-attachment-dialog';
import { WhatsAppComposer } from './whatsapp-composer';
import { IconTooltip } from '../../../components/ui/tooltip';
import { ComposerModes } from '../team/composer-modes';
import { NoteComposer } from '../team/note-composer';
import type { TCannedAttachment } from '../canned/canned-picker';
import { AttachmentChip } from './whatsapp-attach-menu';
import { useTypingNotifier } from '../hooks/use-typing';
import { CopilotBar } from './copilot-bar';
import { EmailComposer } from '../email/email-composer';

const PAYLOAD_TOO_LARGE = 413;

/**
 * Why a reply did not go: on SMS and email the server's reason (the customer replied STOP, no
 * account connected) is what staff need to read; otherwise the spec's generic words.
 */
function sendFailure(conversation: TConversation, error: unknown): string {
  if (conversation.channel !== 'sms' && conversation.channel !== 'email') return S.sendFailed;
  const failure = describeApiFailure(error);
  if (failure.kind !== 'response') return S.sendFailed;
  const field = failure.fieldErrors?.content?.[0];
  return field ?? (failure.message || S.sendFailed);
}

function OwnChannelComposer({ conversation }: { conversation: TConversation }) {
  const [text, setText] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [sendingFile, setSendingFile] = useState(false);
  // A canned response's stored file: sent as a file message after the text.
  const [cannedFile, setCannedFile] = useState<TCannedAttachment | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const send = useSendMessage();
  const upload = useUploadFile();
  // SMS replies are text (segments shown as typed), with one picture at most (MMS).
  const sms = conversation.channel === 'sms';
  const picture = useSmsPicture();
  const notifyTyping = useTypingNotifier(conversation.id);

  const sendText = () => {
    const content = text.trim();
    if ((!content && !cannedFile) || send.isPending || picture.uploading) return;
    const file = cannedFile;
    const sendCannedFile = () => {
      if (!file) return;
      send.mutate(
        { conversationId: conversation.id, message_type: 'file', content: file.key },
        {
          onSuccess: () => setCannedFile((current) => (current?.key === file.key ? null : current)),
          onError: (error) => {
            if (!isHandledApiError(error)) toast.error(S.sendFailed);
          },
        },
      );
    };
    if (!content) {
      sendCannedFile();
      return;
    }
    const mediaKey = sms ? picture.key : null;
    send.mutate(
      {
        conversationId: conversation.id,
        message_type: 'text',
        content,
        ...(mediaKey ? { attachment_ids: [mediaKey] } : {}),
      },
      {
        // Whatever was typed meanwhile stays.
        onSuccess: () => {
          setText((current) => (current === text ? '' : current));
          if (mediaKey) picture.clear();
          sendCannedFile();
        },
        onError: (error) => {
          if (!isHandledApiError(error)) toast.error(sendFailure(conversation, error));
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
    <div className="flex flex-col gap-2 border-t p-3">
      <CopilotBar conversationId={conversation.id} onDraft={setText} />
      {cannedFile ? (
        <AttachmentChip name={cannedFile.file_name} onRemove={() => setCannedFile(null)} />
      ) : null}
      {sms && picture.name ? <AttachmentChip name={picture.name} onRemove={picture.clear} /> : null}
      <div className="flex items-end gap-2">
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
        {sms ? (
          <SmsPictureButton onPick={picture.pick} />
        ) : (
          <IconTooltip label={S.attach}>
            <Button
              type="button"
              variant="ghost"
              size="icon"
              aria-label={S.attach}
              onClick={() => fileInput.current?.click()}
            >
              <PaperclipIcon aria-hidden="true" />
            </Button>
          </IconTooltip>
        )}
        <MessageBox
          value={text}
          onChange={(value) => {
            setText(value);
            notifyTyping(value);
          }}
          onSubmit={sendText}
          canned={{ conversationId: conversation.id, onAttachment: setCannedFile }}
        />
        <IconTooltip label={S.send}>
          <Button
            type="button"
            size="icon"
            aria-label={S.send}
            disabled={(text.trim() === '' && !cannedFile) || send.isPending || picture.uploading}
            onClick={sendText}
          >
            <SendHorizontalIcon aria-hidden="true" />
          </Button>
        </IconTooltip>
        <SendAttachmentDialog
          file={file}
          sending={sendingFile}
          onCancel={() => setFile(null)}
          onSend={() => void sendFile()}
        />
      </div>
      {sms ? <SmsCounter text={text} mms={picture.name !== null} /> : null}
    </div>
  );
}

/**
 * Characters, segments and encoding of an SMS reply, as it is typed (Twilio bills per segment); with
 * a picture it goes as one MMS, billed as such whatever its length.
 */
function SmsCounter({ text, mms }: { text: string; mms: boolean }) {
  const split = smsSegments(text.trim());
  return (
    <p className="text-muted-foreground text-xs" aria-live="polite" data-testid="sms-counter">
      {mms ? S.mmsNote(split.characters) : S.smsCounter(split.characters, split.segments, split.encoding)}
    </p>
  );
}

/** The picture an SMS reply carries (MMS): uploaded when picked, sent by its key. */
function useSmsPicture() {
  const [state, setState] = useState<{ name: string; key: string | null } | null>(null);
  const upload = useMutation({ mutationFn: uploadPicture });
  const pick = (file: File) => {
    if (!(MMS_TYPES as readonly string[]).includes(file.type)) {
      toast.error(S.mmsType);
      return;
    }
    if (file.size > MMS_MAX_BYTES) {
      toast.error(S.mmsTooLarge);
      return;
    }
    setState({ name: file.name, key: null });
    upload.mutate(file, {
      onSuccess: (result) =>
        setState((current) => (current?.name === file.name ? { ...current, key: result.key } : current)),
      onError: (error) => {
        setState(null);
        if (!isHandledApiError(error)) toast.error(S.uploadFailed);
      },
    });
  };
  return {
    name: state?.name ?? null,
    key: state?.key ?? null,
    uploading: state !== null && state.key === null,
    pick,
    clear: () => setState(null),
  };
}

async function uploadPicture(file: File): Promise<TUploadResult> {
  const form = new FormData();
  form.append('prefix', 'chat_media');
  form.append('file', file, file.name);
  const { data } = await protectedClient.post(UPLOAD_PATH, form, {
    timeout: UPLOAD_TIMEOUT_MS,
    headers: { 'Content-Type': 'multipart/form-data' },
  });
  return ZEnvelope(ZUploadResult).parse(data).result;
}

function SmsPictureButton({ onPick }: { onPick: (file: File) => void }) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <input
        ref={input}
        type="file"
        accept={MMS_TYPES.join(',')}
        className="hidden"
        data-testid="mms-input"
        onChange={(event) => {
          const picked = event.target.files?.[0];
          event.target.value = '';
          if (picked) onPick(picked);
        }}
      />
      <IconTooltip label={S.attachPicture}>
        <Button
          type="button"
          variant="ghost"
          size="icon"
          aria-label={S.attachPicture}
          onClick={() => input.current?.click()}
        >
          <ImageIcon aria-hidden="true" />
        </Button>
      </IconTooltip>
    </>
  );
}

export function Composer({
  conversation,
  replyTo,
  onClearReply,
}: {
  conversation: TConversation;
  /** The WhatsApp message being replied to, if any. */
  replyTo?: TMessage | null;
  onClearReply?: () => void;
}) {
  const [mode, setMode] = useState<'reply' | 'note'>('reply');
  return (
    <div className="flex flex-col" data-composer>
      <ComposerModes mode={mode} onChange={setMode} />
      {mode === 'note' ? (
        <NoteComposer key={conversation.id} conversation={conversation} />
      ) : (
        <ChannelComposer conversation={conversation} replyTo={replyTo} onClearReply={onClearReply} />
      )}
    </div>
  );
}

function ChannelComposer({
  conversation,
  replyTo,
  onClearReply,
}: {
  conversation: TConversation;
  replyTo?: TMessage | null;
  onClearReply?: () => void;
}) {
  if (conversation.channel === 'email')
    return <EmailComposer key={conversation.id} conversation={conversation} />;
  return conversation.channel === 'whatsapp' ? (
    <WhatsAppComposer
      key={conversation.id}
      conversation={conversation}
      replyTo={replyTo ?? null}
      onClearReply={onClearReply ?? (() => {})}
    />
  ) : (
    <OwnChannelComposer key={conversation.id} conversation={conversation} />
  );
}
