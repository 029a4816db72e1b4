// Settings → Canned responses: saved replies (a short code, text with Liquid variables, an optional
// file) that the inbox composer offers when `/` is typed. Everyone in the inbox sees them; owners
// and admins (engage.write) add, edit and delete them.
import { zodResolver } from '@hookform/resolvers/zod';
import {
  CANNED_VARIABLES,
  FILE_TOO_LARGE_MESSAGE,
  OWN_CHANNEL_FILE_LIMIT_BYTES,
  UPLOAD_TIMEOUT_MS,
  ZCannedResponseRequest,
  ZEnvelope,
  ZUploadResult,
  type TCannedAttachment,
  type TCannedResponse,
} from '@titan/contracts';
import { PaperclipIcon, XIcon } from 'lucide-react';
import { useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import type { z } from 'zod';

import { ConfirmAction } from '../../../components/confirm-action';
import { FormAlert } from '../../../components/form/form-alert';
import { TextField } from '../../../components/form/text-field';
import { TextareaField } from '../../../components/form/textarea-field';
import { SectionError, SectionLoading } from '../../../components/load-state';
import { SearchBox } from '../../../components/search-box';
import { Button } from '../../../components/ui/button';
import {
  Card,
  CardAction,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from '../../../components/ui/card';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '../../../components/ui/dialog';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../../components/ui/table';
import { applyApiErrorToForm, isHandledApiError, reportApiError } from '../../../lib/api-errors';
import { usePermissions } from '../../../lib/business/roles';
import { useCannedResponses } from '../../../lib/canned-responses';
import { protectedClient } from '../../../lib/protected-client';
import { useCreateCanned } from '../api/create-canned';
import { useDeleteCanned } from '../api/delete-canned';
import { useUpdateCanned } from '../api/update-canned';
import { CANNED_TAB_STRINGS as STRINGS } from '../labels-strings';

type TCannedForm = z.input<typeof ZCannedResponseRequest>;
const FIELDS = ['short_code', 'content', 'attachment_id'] as const;

/** The business's private chat media: `chat_media/{business}/`, sent with a reply by its key. */
async function uploadAttachment(file: File): Promise<TCannedAttachment> {
  const form = new FormData();
  form.append('prefix', 'chat_media');
  form.append('file', file, file.name);
  const { data } = await protectedClient.post('/api/upload/', form, {
    timeout: UPLOAD_TIMEOUT_MS,
    headers: { 'Content-Type': 'multipart/form-data' },
  });
  const result = ZEnvelope(ZUploadResult).parse(data).result;
  return { key: result.key, file_name: result.file_name, mime_type: result.mime_type, size: result.size };
}

function AttachmentField({
  value,
  onChange,
  error,
}: {
  value: TCannedAttachment | null;
  onChange: (value: TCannedAttachment | null) => void;
  error?: string;
}) {
  const input = useRef<HTMLInputElement>(null);
  const [uploading, setUploading] = useState(false);
  const pick = async (file: File) => {
    if (file.size > OWN_CHANNEL_FILE_LIMIT_BYTES) {
      toast.error(FILE_TOO_LARGE_MESSAGE);
      return;
    }
    setUploading(true);
    try {
      onChange(await uploadAttachment(file));
    } catch (err) {
      if (!isHandledApiError(err)) toast.error(STRINGS.uploadFailed);
    } finally {
      setUploading(false);
    }
  };
  return (
    <div className="grid gap-2">
      <span className="text-sm font-medium">{STRINGS.attachment}</span>
      <div className="flex flex-wrap items-center gap-2">
        {value ? (
          <span className="inline-flex max-w-full items-center gap-1.5 rounded-full border bg-muted px-3 py-1 text-xs">
            <PaperclipIcon aria-hidden="true" className="size-3.5 shrink-0" />
            <span className="truncate">{value.file_name}</span>
            <button
              type="button"
              aria-label={STRINGS.removeFile}
              onClick={() => onChange(null)}
              className="rounded-full p-0.5 hover:bg-accent"
            >
              <XIcon aria-hidden="true" className="size-3.5" />
            </button>
          </span>
        ) : (
          <span className="text-sm text-muted-foreground">{STRINGS.noAttachment}</span>
        )}
        <input
          ref={input}
          type="file"
          className="hidden"
          data-testid="canned-attachment-input"
          onChange={(event) => {
            const file = event.target.files?.[0];
            event.target.value = '';
            if (file) void pick(file);
          }}
        />
        <Button
          type="button"
          variant="outline"
          size="sm"
          disabled={uploading}
          onClick={() => input.current?.click()}
        >
          {uploading ? STRINGS.uploading : STRINGS.chooseFile}
        </Button>
      </div>
      <p className="text-xs text-muted-foreground">{STRINGS.attachmentHint}</p>
      {error ? (
        <p role="alert" className="text-sm text-destructive">
          {error}
        </p>
      ) : null}
    </div>
  );
}

function CannedForm({ canned, onDone }: { canned?: TCannedResponse; onDone: () => void }) {
  const form = useForm<TCannedForm, unknown, z.output<typeof ZCannedResponseRequest>>({
    resolver: zodResolver(ZCannedResponseRequest),
    defaultValues: {
      short_code: canned?.short_code ?? '',
      content: canned?.content ?? '',
      attachment_id: canned?.attachment_id ?? null,
    },
  });
  const [attachment, setAttachment] = useState<TCannedAttachment | null>(canned?.attachment ?? null);
  const create = useCreateCanned();
  const update = useUpdateCanned();
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    const body = { ...values, attachment_id: attachment?.key ?? null };
    try {
      if (canned) {
        await update.mutateAsync({ id: canned.id, ...body });
        toast.success(STRINGS.saved(values.short_code));
      } else {
        await create.mutateAsync(body);
        toast.success(STRINGS.created(values.short_code));
      }
      onDone();
    } catch (error) {
      applyApiErrorToForm(form, FIELDS, error);
    }
  });

  return (
    <form noValidate onSubmit={(event) => void onSubmit(event)} className="grid gap-4">
      <DialogHeader>
        <DialogTitle>{canned ? STRINGS.editTitle(canned.short_code) : STRINGS.createTitle}</DialogTitle>
        <DialogDescription>{STRINGS.description}</DialogDescription>
      </DialogHeader>
      <FormAlert message={errors.root?.server?.message} />
      <TextField
        label={STRINGS.shortCode}
        autoComplete="off"
        hint={STRINGS.shortCodeHint}
        prefix="/"
        maxLength={50}
        registration={form.register('short_code')}
        error={errors.short_code?.message}
      />
      <TextareaField
        label={STRINGS.content}
        rows={6}
        registration={form.register('content')}
        error={errors.content?.message}
        hint={
          <>
            {STRINGS.variables}{' '}
            {CANNED_VARIABLES.map((v, i) => (
              <span key={v}>
                {i > 0 ? ', ' : null}
                <code className="font-mono">{`{{ ${v} }}`}</code>
              </span>
            ))}
          </>
        }
      />
      <AttachmentField value={attachment} onChange={setAttachment} error={errors.attachment_id?.message} />
      <DialogFooter>
        <Button type="submit" disabled={isSubmitting}>
          {isSubmitting ? STRINGS.saving : STRINGS.save}
        </Button>
      </DialogFooter>
    </form>
  );
}

function CannedDialog({ canned }: { canned?: TCannedResponse }) {
  const [open, setOpen] = useState(false);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        {canned ? (
          <Button variant="ghost" size="sm" aria-label={STRINGS.editLabel(canned.short_code)}>
            {STRINGS.edit}
          </Button>
        ) : (
          <Button>{STRINGS.create}</Button>
        )}
      </DialogTrigger>
      <DialogContent className="sm:max-w-xl">
        {open ? <CannedForm canned={canned} onDone={() => setOpen(false)} /> : null}
      </DialogContent>
    </Dialog>
  );
}

function CannedRow({ canned, manage }: { canned: TCannedResponse; manage: boolean }) {
  const remove = useDeleteCanned();
  return (
    <TableRow>
      <TableCell className="align-top">
        <code className="font-mono text-sm font-medium">/{canned.short_code}</code>
      </TableCell>
      <TableCell className="max-w-md align-top whitespace-normal">
        <p className="line-clamp-3 text-sm break-words">{canned.content}</p>
        {canned.attachment ? (
          <p className="mt-1 flex items-center gap-1 text-xs text-muted-foreground">
            <PaperclipIcon aria-hidden="true" className="size-3.5" />
            <span className="truncate">{canned.attachment.file_name}</span>
          </p>
        ) : null}
      </TableCell>
      {manage ? (
        <TableCell className="text-right align-top whitespace-nowrap">
          <CannedDialog canned={canned} />
          <ConfirmAction
            trigger={STRINGS.remove}
            triggerLabel={STRINGS.removeLabel(canned.short_code)}
            title={STRINGS.removeTitle(canned.short_code)}
            description={STRINGS.removeText}
            confirmLabel={STRINGS.remove}
            disabled={remove.isPending}
            onConfirm={() =>
              remove.mutate(canned.id, {
                onSuccess: () => toast.success(STRINGS.removed(canned.short_code)),
                onError: (error) => reportApiError(error, { toast: true }),
              })
            }
          />
        </TableCell>
      ) : null}
    </TableRow>
  );
}

export function CannedResponsesTab() {
  const { can, ready } = usePermissions();
  const manage = ready && can('engage.write');
  const [search, setSearch] = useState('');
  const list = useCannedResponses(search);
  return (
    <Card>
      <CardHeader>
        <CardTitle>{STRINGS.title}</CardTitle>
        <CardDescription>{STRINGS.description}</CardDescription>
        {manage ? (
          <CardAction>
            <CannedDialog />
          </CardAction>
        ) : null}
      </CardHeader>
      <CardContent className="grid gap-4">
        {ready && !manage ? <p className="text-sm text-muted-foreground">{STRINGS.readOnly}</p> : null}
        <SearchBox
          value={search}
          onSearch={setSearch}
          label={STRINGS.search}
          placeholder={STRINGS.searchPlaceholder}
          clearLabel={STRINGS.clearSearch}
        />
        {list.isPending ? (
          <SectionLoading />
        ) : list.isError ? (
          <SectionError error={list.error} onRetry={() => void list.refetch()} />
        ) : list.data.length === 0 ? (
          <p className="text-sm text-muted-foreground">{search ? STRINGS.noMatch : STRINGS.empty}</p>
        ) : (
          <div className="overflow-x-auto">
            <Table aria-label={STRINGS.title}>
              <TableHeader>
                <TableRow>
                  <TableHead>{STRINGS.shortCode}</TableHead>
                  <TableHead>{STRINGS.content}</TableHead>
                  {manage ? <TableHead className="text-right">{STRINGS.actions}</TableHead> : null}
                </TableRow>
              </TableHeader>
              <TableBody>
                {list.data.map((canned) => (
                  <CannedRow key={canned.id} canned={canned} manage={manage} />
                ))}
              </TableBody>
            </Table>
          </div>
        )}
      </CardContent>
    </Card>
  );
}
