// Settings → Chat groups (/engage/settings/chat-groups): the groups, and with team.manage creating,
// editing (?group=<id>, or ?group=new), deleting and staffing them. Each links to its embed settings.
import type { TChatGroupSettings } from '@titan/contracts';
import { ArrowLeftIcon, CodeIcon, ExternalLinkIcon, PencilIcon, PlusIcon } from 'lucide-react';
import { Link, useSearchParams } from 'react-router';
import { toast } from 'sonner';

import { ConfirmAction } from '../../../components/confirm-action';
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
import { businessEmbedPath, groupEmbedPath, hostedChatPath } from '../../../config/paths';
import { reportApiError } from '../../../lib/api-errors';
import { usePermissions } from '../../../lib/business/roles';
import { useCurrentMembership } from '../../../lib/session/current-business';
import { useDeleteChatGroup } from '../api/delete-chat-group';
import { useChatGroups } from '../api/get-chat-groups';
import { ChatGroupForm } from '../components/chat-group-form';
import { GroupStaffCard } from '../components/group-staff-card';
import { CHAT_GROUPS_STRINGS as S, EMBED_STRINGS } from '../strings';

const GROUP_PARAM = 'group';
const NEW_GROUP = 'new';

function Swatch({ color }: { color: string }) {
  return (
    <span
      aria-hidden="true"
      className="size-3 shrink-0 rounded-full border"
      style={{ backgroundColor: color }}
    />
  );
}

function GroupRow({
  group,
  canManage,
  onEdit,
}: {
  group: TChatGroupSettings;
  canManage: boolean;
  onEdit: () => void;
}) {
  const remove = useDeleteChatGroup();
  return (
    <TableRow>
      <TableCell className="font-medium">
        <span className="flex items-center gap-2">
          <Swatch color={group.color} />
          {group.name}
        </span>
      </TableCell>
      <TableCell>
        <code className="font-mono text-xs">{group.slug}</code>
      </TableCell>
      <TableCell className="text-right tabular-nums">{group.visitor_form.length}</TableCell>
      <TableCell>
        {group.allowed_origins.length === 0 ? (
          <span className="text-muted-foreground">{S.anyOrigin}</span>
        ) : (
          group.allowed_origins.length
        )}
      </TableCell>
      {canManage ? (
        <TableCell className="text-right">
          <div className="flex justify-end gap-1">
            <Button variant="ghost" size="sm" aria-label={S.editLabel(group.name)} onClick={onEdit}>
              <PencilIcon aria-hidden="true" />
              {S.edit}
            </Button>
            <Button asChild variant="ghost" size="sm">
              <Link to={groupEmbedPath(group.slug)} aria-label={S.embedLabel(group.name)}>
                <CodeIcon aria-hidden="true" />
                {S.embed}
              </Link>
            </Button>
            <ConfirmAction
              trigger={S.delete}
              triggerLabel={S.deleteLabel(group.name)}
              title={S.deleteTitle(group.name)}
              description={S.deleteText}
              confirmLabel={S.delete}
              disabled={remove.isPending}
              onConfirm={() =>
                remove.mutate(group.id, {
                  onSuccess: () => toast.success(S.deleted(group.name)),
                  onError: (error) => reportApiError(error, { toast: true }),
                })
              }
            />
          </div>
        </TableCell>
      ) : null}
    </TableRow>
  );
}

function GroupList({
  groups,
  canManage,
  onOpen,
}: {
  groups: TChatGroupSettings[];
  canManage: boolean;
  onOpen: (group: string) => void;
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>{S.title}</CardTitle>
        <CardDescription>{S.description}</CardDescription>
        {canManage ? (
          <CardAction>
            <Button size="sm" onClick={() => onOpen(NEW_GROUP)}>
              <PlusIcon aria-hidden="true" />
              {S.create}
            </Button>
          </CardAction>
        ) : null}
      </CardHeader>
      <CardContent className="grid gap-3">
        {canManage ? null : <p className="text-sm text-muted-foreground">{S.readOnly}</p>}
        {groups.length === 0 ? (
          <div className="grid gap-1 py-4 text-center">
            <p className="font-medium">{S.empty}</p>
            <p className="text-sm text-muted-foreground">{S.emptyText}</p>
          </div>
        ) : (
          <Table aria-label={S.tableLabel}>
            <TableHeader>
              <TableRow>
                <TableHead>{S.columns.name}</TableHead>
                <TableHead>{S.columns.slug}</TableHead>
                <TableHead className="text-right">{S.columns.fields}</TableHead>
                <TableHead>{S.columns.origins}</TableHead>
                {canManage ? <TableHead className="text-right">{S.columns.actions}</TableHead> : null}
              </TableRow>
            </TableHeader>
            <TableBody>
              {groups.map((group) => (
                <GroupRow
                  key={group.id}
                  group={group}
                  canManage={canManage}
                  onEdit={() => onOpen(String(group.id))}
                />
              ))}
            </TableBody>
          </Table>
        )}
      </CardContent>
    </Card>
  );
}

function GroupEditor({
  group,
  businessCode,
  onDone,
  onCreated,
}: {
  group: TChatGroupSettings | undefined;
  businessCode: string | null;
  onDone: () => void;
  onCreated: (group: TChatGroupSettings) => void;
}) {
  return (
    <div className="grid gap-6">
      <div className="flex flex-wrap items-center gap-3">
        <Button variant="ghost" size="sm" onClick={onDone}>
          <ArrowLeftIcon aria-hidden="true" />
          {S.allGroups}
        </Button>
        <h2 className="text-xl font-semibold">{group ? S.editTitle(group.name) : S.createTitle}</h2>
        {group ? (
          <div className="ml-auto flex flex-wrap gap-2">
            <Button asChild variant="outline" size="sm">
              <Link to={groupEmbedPath(group.slug)}>
                <CodeIcon aria-hidden="true" />
                {S.embed}
              </Link>
            </Button>
            {businessCode ? (
              <Button asChild variant="outline" size="sm">
                {/* Served by the server, not this app: a full page load. */}
                <a href={hostedChatPath(businessCode, group.slug)} target="_blank" rel="noreferrer">
                  <ExternalLinkIcon aria-hidden="true" />
                  {EMBED_STRINGS.openHosted}
                </a>
              </Button>
            ) : null}
          </div>
        ) : null}
      </div>
      <ChatGroupForm
        key={group?.id ?? NEW_GROUP}
        group={group}
        onCancel={onDone}
        onSaved={(saved) => {
          if (group) toast.success(S.saved);
          else {
            toast.success(S.created(saved.name));
            onCreated(saved);
          }
        }}
      />
      {group ? <GroupStaffCard groupId={group.id} canManage /> : null}
    </div>
  );
}

export function ChatGroupsSettingsRoute() {
  const [searchParams, setSearchParams] = useSearchParams();
  const open = searchParams.get(GROUP_PARAM);
  const { can, ready } = usePermissions();
  const canManage = can('team.manage');
  const groups = useChatGroups();
  const businessCode = useCurrentMembership()?.unique_code ?? null;

  const openGroup = (group: string | null) => setSearchParams(group === null ? {} : { [GROUP_PARAM]: group });

  if (groups.isPending || !ready) return <SectionLoading />;
  if (groups.isError) return <SectionError error={groups.error} onRetry={() => void groups.refetch()} />;

  if (open !== null && canManage) {
    const group = open === NEW_GROUP ? undefined : groups.data.find((g) => String(g.id) === open);
    if (open !== NEW_GROUP && !group) {
      return (
        <div role="alert" className="grid justify-items-start gap-2 text-sm">
          <p>{S.notFound}</p>
          <Button variant="outline" size="sm" onClick={() => openGroup(null)}>
            {S.allGroups}
          </Button>
        </div>
      );
    }
    return (
      <GroupEditor
        group={group}
        businessCode={businessCode}
        onDone={() => openGroup(null)}
        onCreated={(created) => openGroup(String(created.id))}
      />
    );
  }

  return (
    <div className="grid gap-6">
      <GroupList groups={groups.data} canManage={canManage} onOpen={openGroup} />
      {canManage && businessCode ? (
        <Card>
          <CardHeader>
            <CardTitle>{S.businessWidgetTitle}</CardTitle>
            <CardDescription>{S.businessWidgetText}</CardDescription>
          </CardHeader>
          <CardContent>
            <Button asChild variant="outline" size="sm">
              <Link to={businessEmbedPath(businessCode)}>
                <CodeIcon aria-hidden="true" />
                {S.businessWidgetLink}
              </Link>
            </Button>
          </CardContent>
        </Card>
      ) : null}
    </div>
  );
}
