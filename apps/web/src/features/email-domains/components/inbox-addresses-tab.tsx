// Settings → Inbox addresses: the addresses customers write to (support@ on a verified sending
// domain), each with the records to publish so mail reaches Titan — shown like the sending records,
// with copy buttons — and the chat group its conversations open in. Add needs engage.write, as does
// delete (asked first); reading needs engage.read.
import { zodResolver } from '@hookform/resolvers/zod';
import { ZCreateEmailInboxRequest, type TEmailInbox } from '@titan/contracts';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { z } from 'zod';

import { ConfirmAction } from '../../../components/confirm-action';
import { CopyButton } from '../../../components/copy-button';
import { FormAlert } from '../../../components/form/form-alert';
import { SelectField } from '../../../components/form/select-field';
import { TextField } from '../../../components/form/text-field';
import { SectionError, SectionLoading } from '../../../components/load-state';
import { Button } from '../../../components/ui/button';
import {
  Card,
  CardAction,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from '../../../components/ui/card';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../../components/ui/table';
import { settingsPath } from '../../../config/paths';
import { applyApiErrorToForm, reportApiError } from '../../../lib/api-errors';
import { usePermissions } from '../../../lib/business/roles';
import { useChatGroupChoices, type TChatGroupChoice } from '../../../lib/chat-group-choices';
import { useEmailDomains } from '../../../lib/email-domains';
import { useCreateEmailInbox } from '../api/create-email-inbox';
import { useDeleteEmailInbox } from '../api/delete-email-inbox';
import { useEmailInboxes } from '../api/get-email-inboxes';
import { INBOX_ADDRESSES_STRINGS as S } from '../strings';

const FIELDS = ['local_part', 'domain_id', 'chat_group_id'] as const;

/** The form's values as typed (selects give strings), checked by the API's own rules. */
const ZForm = z.object({
  local_part: ZCreateEmailInboxRequest.shape.local_part,
  domain_id: z.string().min(1, 'Choose a domain.'),
  chat_group_id: z.string(),
});
type TForm = z.input<typeof ZForm>;

function AddInboxForm({
  domains,
  groups,
}: {
  domains: { id: number; domain: string }[];
  groups: TChatGroupChoice[];
}) {
  const form = useForm<TForm, unknown, z.output<typeof ZForm>>({
    resolver: zodResolver(ZForm),
    defaultValues: { local_part: '', domain_id: String(domains[0]?.id ?? ''), chat_group_id: '' },
  });
  const create = useCreateEmailInbox();
  const { errors, isSubmitting } = form.formState;
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const inbox = await create.mutateAsync({
        local_part: values.local_part,
        domain_id: Number(values.domain_id),
        chat_group_id: values.chat_group_id ? Number(values.chat_group_id) : null,
      });
      toast.success(S.added(inbox.address));
      form.reset({ ...values, local_part: '' });
    } catch (error) {
      applyApiErrorToForm(form, FIELDS, error);
    }
  });
  return (
    <form
      noValidate
      aria-label={S.addTitle}
      onSubmit={(event) => void onSubmit(event)}
      className="grid gap-4 md:grid-cols-[minmax(0,1fr)_minmax(0,1fr)_minmax(0,1fr)_auto] md:items-start"
    >
      <div className="md:col-span-4">
        <FormAlert message={errors.root?.server?.message} />
      </div>
      <TextField
        label={S.localPart}
        hint={S.localPartHint}
        placeholder="support"
        autoComplete="off"
        spellCheck={false}
        registration={form.register('local_part')}
        error={errors.local_part?.message}
      />
      <SelectField
        label={S.domain}
        registration={form.register('domain_id')}
        options={domains.map((d) => ({ value: String(d.id), label: `@${d.domain}` }))}
        error={errors.domain_id?.message}
      />
      <SelectField
        label={S.chatGroup}
        registration={form.register('chat_group_id')}
        options={[
          { value: '', label: S.noChatGroup },
          ...groups.map((g) => ({ value: String(g.id), label: g.name })),
        ]}
        error={errors.chat_group_id?.message}
      />
      <Button type="submit" disabled={isSubmitting} className="md:mt-[1.375rem]">
        {isSubmitting ? S.adding : S.add}
      </Button>
    </form>
  );
}

function InboxRecords({ inbox }: { inbox: TEmailInbox }) {
  return (
    <Table aria-label={S.recordsLabel(inbox.address)}>
      <TableHeader>
        <TableRow>
          <TableHead>{S.type}</TableHead>
          <TableHead>{S.host}</TableHead>
          <TableHead>{S.value}</TableHead>
          <TableHead>{S.priority}</TableHead>
          <TableHead>{S.what}</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {inbox.records.map((record) => {
          const purpose = S.purposes[record.purpose];
          return (
            <TableRow key={`${record.purpose} ${record.host}`} className="align-top">
              <TableCell>
                <code className="font-mono text-xs">{record.type}</code>
              </TableCell>
              <TableCell className="max-w-56 min-w-36">
                <div className="flex items-start gap-2">
                  <code className="font-mono text-xs [overflow-wrap:anywhere] whitespace-normal">
                    {record.host}
                  </code>
                  <CopyButton value={record.host} label={S.copy} aria-label={S.copyHost(purpose)} />
                </div>
              </TableCell>
              <TableCell className="max-w-56 min-w-36">
                <div className="flex items-start gap-2">
                  <code className="font-mono text-xs [overflow-wrap:anywhere] whitespace-normal">
                    {record.value}
                  </code>
                  <CopyButton value={record.value} label={S.copy} aria-label={S.copyValue(purpose)} />
                </div>
              </TableCell>
              <TableCell>{record.priority ?? '—'}</TableCell>
              <TableCell className="max-w-80 min-w-48 whitespace-normal">
                <p className="font-medium">{purpose}</p>
                <p className="mt-1 text-xs text-muted-foreground">{record.detail}</p>
              </TableCell>
            </TableRow>
          );
        })}
      </TableBody>
    </Table>
  );
}

function InboxCard({
  inbox,
  groupName,
  canWrite,
}: {
  inbox: TEmailInbox;
  groupName: string | null;
  canWrite: boolean;
}) {
  const remove = useDeleteEmailInbox();
  return (
    <Card>
      <CardHeader>
        <CardTitle className="[overflow-wrap:anywhere]">{inbox.address}</CardTitle>
        <CardDescription>{groupName ? S.routedTo(groupName) : S.recordsIntro}</CardDescription>
        {canWrite ? (
          <CardAction>
            <ConfirmAction
              trigger={S.delete}
              triggerLabel={S.deleteLabel(inbox.address)}
              title={S.deleteTitle(inbox.address)}
              description={S.deleteText}
              confirmLabel={S.delete}
              variant="outline"
              disabled={remove.isPending}
              onConfirm={() =>
                remove.mutate(inbox.id, {
                  onSuccess: () => toast.success(S.deleted(inbox.address)),
                  onError: (error) => reportApiError(error, { toast: true }),
                })
              }
            />
          </CardAction>
        ) : null}
      </CardHeader>
      <CardContent>
        <InboxRecords inbox={inbox} />
      </CardContent>
    </Card>
  );
}

export function InboxAddressesTab() {
  const { can, ready } = usePermissions();
  const canWrite = can('engage.write');
  const inboxes = useEmailInboxes();
  const domains = useEmailDomains();
  const groups = useChatGroupChoices();
  const verified = (domains.data ?? []).filter((d) => d.status === 'verified');
  const groupName = (id: number | null) => groups.data?.find((g) => g.id === id)?.name ?? null;
  return (
    <div className="grid gap-4">
      <Card>
        <CardHeader>
          <CardTitle>{S.title}</CardTitle>
          <CardDescription>{S.description}</CardDescription>
        </CardHeader>
        <CardContent>
          {!ready || domains.isPending ? (
            <SectionLoading />
          ) : !canWrite ? (
            <p className="text-sm">{S.notAllowed}</p>
          ) : verified.length === 0 ? (
            <p className="text-sm">
              {S.noVerifiedDomain}{' '}
              <Link to={settingsPath('email-domains')} className="text-primary underline underline-offset-4">
                {S.goToDomains}
              </Link>
            </p>
          ) : (
            <AddInboxForm domains={verified} groups={groups.data ?? []} />
          )}
        </CardContent>
      </Card>
      {inboxes.isPending ? (
        <SectionLoading />
      ) : inboxes.isError ? (
        <SectionError error={inboxes.error} onRetry={() => void inboxes.refetch()} />
      ) : inboxes.data.length === 0 ? (
        <p className="text-sm text-muted-foreground">{S.empty}</p>
      ) : (
        inboxes.data.map((inbox) => (
          <InboxCard
            key={inbox.id}
            inbox={inbox}
            groupName={groupName(inbox.chat_group_id)}
            canWrite={canWrite}
          />
        ))
      )}
    </div>
  );
}
