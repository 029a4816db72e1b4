// The reply box of an email conversation: an email composer. To the customer's address; cc and bcc
// (shown on demand, checked as typed); the subject — `Re: <conversation>` unless staff write one of
// their own, which starts a new thread; rich text (HTML and a text part); attachments uploaded to the
// business's files first and sent by key. Ctrl/⌘+Enter or "Send email" sends; what failed says why.
import {
  EMAIL_REPLY_ATTACHMENTS_MAX,
  UPLOAD_TIMEOUT_MS,
  ZEnvelope,
  ZUploadResult,
  type TConversation,
  type TUploadResult,
} from '@titan/contracts';
import { useMutation } from '@tanstack/react-query';
import { PaperclipIcon, SendHorizontalIcon, XIcon } from 'lucide-react';
import { useId, useLayoutEffect, useRef, useState } from 'react';
import { toast } from 'sonner';

import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { Spinner } from '../../../components/ui/spinner';
import { IconTooltip } from '../../../components/ui/tooltip';
import { apiErrorStatus, describeApiFailure, isHandledApiError } from '../../../lib/api-errors';
import { protectedClient } from '../../../lib/protected-client';
import { useSendMessage } from '../api/send-message';
import { fileSizeProblem, UPLOAD_PATH } from '../api/upload-file';
import { CONVERSATIONS_STRINGS } from '../strings';
import { CopilotBar } from '../components/copilot-bar';
import { parseAddresses, replySubject } from './email-utils';
import { RichTextEditor } from './rich-text-editor';
import { richTextOf, useRichTextEditor, type TRichText } from './use-rich-text-editor';
import { EMAIL_STRINGS as S } from './strings';

const PAYLOAD_TOO_LARGE = 413;

/** Reply attachments are business files (not chat media, which is pruned unless a file message holds it). */
async function uploadAttachment(file: File): Promise<TUploadResult> {
  const form = new FormData();
  form.append('prefix', 'chat_media');
  form.append('file', file, file.name);
  const { data } = await protectedClient.post(UPLOAD_PATH, form, {
    timeout: UPLOAD_TIMEOUT_MS,
    headers: { 'Content-Type': 'multipart/form-data' },
  });
  return ZEnvelope(ZUploadResult).parse(data).result;
}

type TPicked = { id: string; name: string; key: string | null };

/** The first field message the API gave, else its message, else the generic words. */
function failureText(error: unknown): string {
  const failure = describeApiFailure(error);
  if (failure.kind !== 'response') return CONVERSATIONS_STRINGS.sendFailed;
  const fields = failure.fieldErrors ?? {};
  const first = Object.entries(fields).find(([, messages]) => messages?.length)?.[1]?.[0];
  return first ?? (failure.message || CONVERSATIONS_STRINGS.sendFailed);
}

function AddressField({
  label,
  value,
  onChange,
  invalid,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  invalid: string[];
}) {
  const id = useId();
  const hint = `${id}-hint`;
  return (
    <div className="flex items-center gap-2">
      <Label htmlFor={id} className="w-14 shrink-0 text-xs text-muted-foreground">
        {label}
      </Label>
      <div className="flex min-w-0 flex-1 flex-col gap-1">
        <Input
          id={id}
          type="text"
          inputMode="email"
          autoComplete="off"
          value={value}
          onChange={(event) => onChange(event.target.value)}
          aria-invalid={invalid.length > 0}
          aria-describedby={hint}
          className="h-8"
        />
        <p id={hint} className={invalid.length ? 'text-xs text-destructive' : 'sr-only'}>
          {invalid.length ? S.badAddresses(label, invalid) : S.addressesHint}
        </p>
      </div>
    </div>
  );
}

export function EmailComposer({ conversation }: { conversation: TConversation }) {
  const defaultSubject = replySubject(conversation.title ?? '');
  const [subject, setSubject] = useState(defaultSubject);
  const [showCopies, setShowCopies] = useState(false);
  const [cc, setCc] = useState('');
  const [bcc, setBcc] = useState('');
  const [body, setBody] = useState<TRichText>({ html: '', text: '' });
  const [files, setFiles] = useState<TPicked[]>([]);
  const fileInput = useRef<HTMLInputElement>(null);
  const subjectId = useId();
  const send = useSendMessage();
  const upload = useMutation({ mutationFn: uploadAttachment });
  // The editor sends on Ctrl/⌘+Enter with the latest state.
  const submitRef = useRef<() => void>(() => {});
  const editor = useRichTextEditor({ onChange: setBody, onSubmit: () => submitRef.current() });

  const ccParsed = parseAddresses(cc);
  const bccParsed = parseAddresses(bcc);
  const uploading = files.some((f) => f.key === null);
  const canSend =
    body.text !== '' &&
    subject.trim() !== '' &&
    ccParsed.invalid.length === 0 &&
    bccParsed.invalid.length === 0 &&
    !uploading &&
    !send.isPending;

  const submit = () => {
    if (!editor) return;
    const current = richTextOf(editor);
    if (!canSend || current.text === '') return;
    const ownSubject = subject.trim() !== defaultSubject ? subject.trim() : undefined;
    send.mutate(
      {
        conversationId: conversation.id,
        message_type: 'text',
        content: current.text,
        html: current.html,
        ...(ccParsed.addresses.length ? { cc: ccParsed.addresses } : {}),
        ...(bccParsed.addresses.length ? { bcc: bccParsed.addresses } : {}),
        ...(ownSubject ? { subject: ownSubject } : {}),
        ...(files.length ? { attachment_ids: files.map((f) => f.key!) } : {}),
      },
      {
        onSuccess: () => {
          editor.commands.clearContent(true);
          setFiles([]);
        },
        onError: (error) => {
          if (!isHandledApiError(error)) toast.error(failureText(error));
        },
      },
    );
  };
  useLayoutEffect(() => {
    submitRef.current = submit;
  });

  const addFiles = (picked: File[]) => {
    const room = EMAIL_REPLY_ATTACHMENTS_MAX - files.length;
    if (picked.length > room) toast.error(S.tooManyFiles(EMAIL_REPLY_ATTACHMENTS_MAX));
    for (const file of picked.slice(0, Math.max(room, 0))) {
      const problem = fileSizeProblem(file);
      if (problem) {
        toast.error(problem);
        continue;
      }
      const id = `${file.name}-${Math.random().toString(36).slice(2)}`;
      setFiles((current) => [...current, { id, name: file.name, key: null }]);
      upload.mutate(file, {
        onSuccess: (result) =>
          setFiles((current) => current.map((f) => (f.id === id ? { ...f, key: result.key } : f))),
        onError: (error) => {
          setFiles((current) => current.filter((f) => f.id !== id));
          if (!isHandledApiError(error))
            toast.error(
              apiErrorStatus(error) === PAYLOAD_TOO_LARGE
                ? CONVERSATIONS_STRINGS.fileTooLarge
                : CONVERSATIONS_STRINGS.uploadFailed,
            );
        },
      });
    }
  };

  const to = conversation.initiator?.email ?? null;
  return (
    <form
      aria-label={S.composer}
      className="flex flex-col gap-2 border-t p-3"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <CopilotBar
        conversationId={conversation.id}
        // A suggested draft replaces the body, a paragraph per blank-line-separated block.
        onDraft={(text) =>
          editor?.commands.setContent(
            text.split(/\n{2,}/).map((p) => ({
              type: 'paragraph',
              content: p.trim() ? [{ type: 'text', text: p.trim() }] : [],
            })),
            { emitUpdate: true },
          )
        }
      />
      <div className="flex items-center gap-2 text-xs">
        <span className="w-14 shrink-0 text-muted-foreground">{S.to}</span>
        <span className="min-w-0 flex-1 truncate" data-testid="email-to">
          {to ?? S.noRecipient}
        </span>
        {showCopies ? null : (
          <Button
            type="button"
            variant="ghost"
            size="sm"
            className="h-7 text-xs"
            onClick={() => setShowCopies(true)}
          >
            {S.showCopies}
          </Button>
        )}
      </div>
      {showCopies ? (
        <>
          <AddressField label={S.cc} value={cc} onChange={setCc} invalid={ccParsed.invalid} />
          <AddressField label={S.bcc} value={bcc} onChange={setBcc} invalid={bccParsed.invalid} />
        </>
      ) : null}
      <div className="flex items-center gap-2">
        <Label htmlFor={subjectId} className="w-14 shrink-0 text-xs text-muted-foreground">
          {S.subject}
        </Label>
        <div className="flex min-w-0 flex-1 flex-col gap-1">
          <Input
            id={subjectId}
            value={subject}
            maxLength={500}
            onChange={(event) => setSubject(event.target.value)}
            aria-describedby={`${subjectId}-hint`}
            className="h-8"
          />
          <p
            id={`${subjectId}-hint`}
            className={subject.trim() !== defaultSubject ? 'text-xs text-muted-foreground' : 'sr-only'}
          >
            {S.subjectHint}
          </p>
        </div>
      </div>
      <RichTextEditor editor={editor} />
      {files.length ? (
        <ul aria-label={S.filesToSend} className="flex flex-wrap gap-2">
          {files.map((f) => (
            <li
              key={f.id}
              className="inline-flex max-w-60 items-center gap-1 rounded-md border bg-muted px-2 py-1 text-xs"
            >
              {f.key === null ? <Spinner className="size-3" aria-label={S.uploading} /> : null}
              <span className="truncate">{f.name}</span>
              <button
                type="button"
                aria-label={S.removeAttachment(f.name)}
                className="rounded p-0.5 hover:bg-background"
                onClick={() => setFiles((current) => current.filter((x) => x.id !== f.id))}
              >
                <XIcon aria-hidden="true" className="size-3" />
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <div className="flex items-center justify-between gap-2">
        <input
          ref={fileInput}
          type="file"
          multiple
          className="hidden"
          data-testid="email-attachment-input"
          onChange={(event) => {
            const picked = Array.from(event.target.files ?? []);
            event.target.value = '';
            addFiles(picked);
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
        <Button type="submit" disabled={!canSend}>
          {send.isPending ? <Spinner className="size-4" /> : <SendHorizontalIcon aria-hidden="true" />}
          {send.isPending ? S.sending : S.send}
        </Button>
      </div>
    </form>
  );
}
