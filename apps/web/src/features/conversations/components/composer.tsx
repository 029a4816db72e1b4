// The message composer (spec sections 2, 4, 5, 8): blank text sends nothing. Own channel: the attach
// button picks a file (10 MB at most), the "Send Attachment" dialog confirms, then the file is
// uploaded and posted as a file message. WhatsApp conversations get the WhatsApp composer.
import type { TConversation, TMessage } from '@titan/contracts';
import { PaperclipIcon, SendHorizontalIcon } from 'lucide-react';
import { useRef, useState } from 'react';
import { toast } from 'sonner';

import { Button } from '../../../components/ui/button';
import { apiErrorStatus, isHandledApiError } from '../../../lib/api-errors';
import { useSendMessage } from '../api/send-message';
import { fileSizeProblem, useUploadFile } from '../api/upload-file';
import { CONVERSATIONS_STRINGS as S } from '../strings';
import { MessageBox } from './message-box';
import { SendAttachmentDialog } from './send-attachment-dialog';
import { WhatsAppComposer } from './whatsapp-composer';
import { IconTooltip } from '../../../components/ui/tooltip';
import { ComposerModes } from '../team/composer-modes';
import { NoteComposer } from '../team/note-composer';

const PAYLOAD_TOO_LARGE = 413;

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
      <MessageBox value={text} onChange={setText} onSubmit={sendText} />
      <IconTooltip label={S.send}>
        <Button
          type="button"
          size="icon"
          aria-label={S.send}
          disabled={text.trim() === '' || send.isPending}
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
    <div className="flex flex-col">
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
