// /engage/directory/visitor/{details}: one visitor ({details} is their id) with every recorded field,
// their consent per channel, their conversations and the messages sent them. Roles with engage.write
// also edit their name, email, phone and consent, and delete them after confirming.
import type { TDirectoryVisitor } from '@titan/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { ArrowLeftIcon, UserXIcon } from 'lucide-react';
import { Link, useNavigate, useParams } from 'react-router';
import { toast } from 'sonner';

import { ConfirmAction } from '../../../components/confirm-action';
import { EmptyState } from '../../../components/empty-state';
import { SectionError, SectionLoading } from '../../../components/load-state';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { DIRECTORY_PATH, newConversationPath } from '../../../config/paths';
import { Button } from '../../../components/ui/button';
import { apiErrorStatus, reportApiError } from '../../../lib/api-errors';
import { usePermissions } from '../../../lib/business/roles';
import { formatDateTime } from '../../../lib/format';
import { forgetVisitor, useDeleteVisitor } from '../api/delete-visitor';
import { useEraseVisitor } from '../api/erase-visitor';
import { useExportVisitor } from '../api/export-visitor';
import { useVisitor } from '../../../lib/customers/get-customer';
import { ConsentBadges } from '../components/consent-badges';
import { ConsentForm } from '../components/consent-form';
import { VisitorConversationsCard, VisitorSendsCard } from '../components/visitor-activity';
import { TextsCard } from '../components/texts-card';
import { VisitorEditForm } from '../components/visitor-edit-form';
import { VisitorLabelsCard } from '../components/visitor-labels';
import { DIRECTORY_STRINGS as S } from '../strings';
import { fieldValueText, visitorName } from '../utils/display';
import { PageLayout } from '../../../components/layout/page-layout';

function visitorIdFrom(value: string | undefined): number | null {
  if (!value || !/^\d+$/.test(value)) return null;
  const id = Number(value);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

function DetailsCard({ visitor }: { visitor: TDirectoryVisitor }) {
  const rows: [string, string][] = [
    [S.name, visitorName(visitor)],
    [S.email, visitor.email ?? S.none],
    [S.phone, visitor.phone ?? S.none],
    [S.externalId, visitor.external_id ?? S.none],
    [S.columns.lastSeen, visitor.last_seen_at ? formatDateTime(visitor.last_seen_at) : S.never],
    [S.columns.created, formatDateTime(visitor.created_at)],
    [S.updated, formatDateTime(visitor.updated_at)],
  ];
  return (
    <Card>
      <CardHeader>
        <CardTitle>{S.detailsTitle}</CardTitle>
      </CardHeader>
      <CardContent>
        <dl
          aria-label={S.detailsTitle}
          className="grid grid-cols-1 gap-x-4 gap-y-1 text-sm sm:grid-cols-[10rem_minmax(0,1fr)] sm:gap-y-2"
        >
          {rows.map(([term, value]) => (
            <div key={term} className="contents">
              <dt className="text-muted-foreground">{term}</dt>
              <dd className="[overflow-wrap:anywhere]">{value}</dd>
            </div>
          ))}
        </dl>
      </CardContent>
    </Card>
  );
}

function FieldsCard({ fields }: { fields: TDirectoryVisitor['fields'] }) {
  const entries = Object.entries(fields);
  return (
    <Card>
      <CardHeader>
        <CardTitle>{S.fieldsTitle}</CardTitle>
        <CardDescription>{S.fieldsDescription}</CardDescription>
      </CardHeader>
      <CardContent>
        {entries.length === 0 ? (
          <p className="text-sm text-muted-foreground">{S.noFields}</p>
        ) : (
          <dl
            aria-label={S.fieldsTitle}
            className="grid grid-cols-1 gap-x-4 gap-y-1 text-sm sm:grid-cols-[10rem_minmax(0,1fr)] sm:gap-y-2"
          >
            {entries.map(([name, value]) => (
              <div key={name} className="contents">
                <dt className="font-mono text-xs leading-5 text-muted-foreground">{name}</dt>
                <dd className="[overflow-wrap:anywhere] whitespace-pre-wrap">{fieldValueText(value)}</dd>
              </div>
            ))}
          </dl>
        )}
      </CardContent>
    </Card>
  );
}

function ConsentCard({ visitor, canWrite }: { visitor: TDirectoryVisitor; canWrite: boolean }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>{S.consentTitle}</CardTitle>
        <CardDescription>{S.consentDescription}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <ConsentBadges visitor={visitor} />
        {/* A saved answer resets the form to what the server kept. */}
        {canWrite ? <ConsentForm key={visitor.updated_at} visitor={visitor} /> : null}
      </CardContent>
    </Card>
  );
}

function VisitorPage({ visitor }: { visitor: TDirectoryVisitor }) {
  const { can, ready } = usePermissions();
  const canWrite = can('engage.write');
  const remove = useDeleteVisitor();
  const erase = useEraseVisitor();
  const exporter = useExportVisitor();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const name = visitorName(visitor);

  const onDelete = () =>
    remove.mutate(visitor.id, {
      onSuccess: async () => {
        toast.success(S.deleted(name));
        await navigate(DIRECTORY_PATH);
        forgetVisitor(queryClient, visitor.id);
      },
      onError: (error) => reportApiError(error, { toast: true }),
    });

  const onErase = () =>
    erase.mutate(visitor.id, {
      onSuccess: async () => {
        toast.success(S.erased(name));
        await navigate(DIRECTORY_PATH);
        forgetVisitor(queryClient, visitor.id);
      },
      onError: (error) => reportApiError(error, { toast: true }),
    });
  const who = [name, visitor.email, visitor.phone].filter(Boolean).join(', ');
  const gone = remove.isSuccess || erase.isSuccess;

  return (
    <>
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="text-2xl font-semibold tracking-tight break-words">{name}</h1>
        {can('engage.send') || canWrite ? (
          <div className="ml-auto flex flex-wrap gap-2">
            {/* Issue 29: start a conversation with them from the inbox. */}
            {can('engage.send') ? (
              <Button asChild variant="outline">
                <Link to={newConversationPath(visitor.id)}>{S.newConversation}</Link>
              </Button>
            ) : null}
            {canWrite ? (
              <>
                <Button
                  variant="outline"
                  disabled={exporter.isPending}
                  onClick={() =>
                    exporter.mutate(visitor.id, {
                      onError: (error) => reportApiError(error, { toast: true }),
                    })
                  }
                >
                  {S.exportData}
                </Button>
                <ConfirmAction
                  trigger={S.erase}
                  variant="outline"
                  size="default"
                  title={S.eraseTitle(name)}
                  description={S.eraseText(who)}
                  confirmLabel={S.eraseConfirm}
                  disabled={erase.isPending}
                  onConfirm={onErase}
                />
                <ConfirmAction
                  trigger={S.delete}
                  variant="outline"
                  size="default"
                  title={S.deleteTitle(name)}
                  description={S.deleteText}
                  confirmLabel={S.deleteConfirm}
                  disabled={remove.isPending}
                  onConfirm={onDelete}
                />
              </>
            ) : null}
          </div>
        ) : null}
      </div>
      <div className="grid gap-6 lg:grid-cols-2">
        <DetailsCard visitor={visitor} />
        <FieldsCard fields={visitor.fields} />
        {ready ? <VisitorLabelsCard visitor={visitor} canWrite={canWrite} /> : null}
        {/* Once deleted, the page (on its way out) asks nothing more about them. */}
        {gone ? null : <VisitorConversationsCard visitorId={visitor.id} count={visitor.conversation_count} />}
        {gone ? null : <TextsCard visitorId={visitor.id} />}
        {ready ? <ConsentCard visitor={visitor} canWrite={canWrite} /> : null}
        {/* Until the role is known, neither the form nor "read only" would be true. */}
        {ready ? (
          <Card>
            <CardHeader>
              <CardTitle>{S.editTitle}</CardTitle>
              <CardDescription>{canWrite ? S.editDescription : S.readOnly}</CardDescription>
            </CardHeader>
            {canWrite ? (
              <CardContent>
                {/* A saved answer resets the form to what the server kept. */}
                <VisitorEditForm key={visitor.updated_at} visitor={visitor} />
              </CardContent>
            ) : null}
          </Card>
        ) : null}
        {gone ? null : <VisitorSendsCard visitorId={visitor.id} />}
      </div>
    </>
  );
}

function VisitorContent({ id }: { id: number }) {
  const visitor = useVisitor(id);
  if (visitor.isPending) return <SectionLoading />;
  if (visitor.isError) {
    if (apiErrorStatus(visitor.error) === 404)
      return <EmptyState icon={UserXIcon} title={S.notFoundTitle} text={S.notFoundText} />;
    return (
      <SectionError
        error={visitor.error}
        onRetry={() => void visitor.refetch()}
        fallback={S.visitorLoadFailed}
      />
    );
  }
  return <VisitorPage visitor={visitor.data} />;
}

export function VisitorRoute() {
  const id = visitorIdFrom(useParams().details);
  return (
    <PageLayout>
      <Link
        to={DIRECTORY_PATH}
        className="flex w-fit items-center gap-1 text-sm text-muted-foreground hover:text-foreground"
      >
        <ArrowLeftIcon aria-hidden="true" className="size-4" />
        {S.back}
      </Link>
      {id === null ? (
        <EmptyState icon={UserXIcon} title={S.notFoundTitle} text={S.notFoundText} />
      ) : (
        <VisitorContent key={id} id={id} />
      )}
    </PageLayout>
  );
}
