// Settings → Audit log (owners and admins): the business's changes, newest first, filtered by
// action, object and dates, a page at a time, and downloadable as CSV with the same filters.
import type { TAuditEntry, TAuditFilter } from '@titan/contracts';
import { useId, useState } from 'react';

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
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { NativeSelect } from '../../../components/ui/native-select';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../../components/ui/table';
import { reportApiError } from '../../../lib/api-errors';
import { usePermissions } from '../../../lib/business/roles';
import { formatDateTime } from '../../../lib/format';
import { useAuditLog, useDownloadAuditLog } from '../api/audit-log';
import { SETTINGS_STRINGS } from '../strings';

const STRINGS = SETTINGS_STRINGS.auditLog;
const PAGE_SIZE = 25;
const OBJECT_TYPES = [
  'business',
  'member',
  'invitation',
  'role',
  'api_key',
  'email_domain',
  'chat_group',
  'widget',
  'sms_channel',
  'whatsapp_channel',
  'template',
  'agent',
  'campaign',
  'journey',
  'webhook_endpoint',
  'export',
  'erasure',
  'billing',
] as const;

function formatChange(value: unknown): string {
  if (value === null || value === undefined) return '—';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function Changes({ entry }: { entry: TAuditEntry }) {
  const fields = Object.entries(entry.changes) as Array<[string, { before?: unknown; after?: unknown }]>;
  if (!fields.length) return <span className="text-muted-foreground">—</span>;
  return (
    <ul className="grid gap-1 text-xs">
      {fields.map(([field, change]) => (
        <li key={field} className="break-words">
          <span className="font-medium">{field}</span>: {formatChange(change?.before)} →{' '}
          {formatChange(change?.after)}
        </li>
      ))}
    </ul>
  );
}

function Filters({ filter, onChange }: { filter: TAuditFilter; onChange: (next: TAuditFilter) => void }) {
  const ids = { action: useId(), type: useId(), from: useId(), to: useId() };
  return (
    <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
      <div className="grid gap-1">
        <Label htmlFor={ids.action}>{STRINGS.action}</Label>
        <Input
          id={ids.action}
          placeholder="template.updated"
          value={filter.action ?? ''}
          onChange={(event) => onChange({ ...filter, action: event.target.value || undefined })}
        />
      </div>
      <div className="grid gap-1">
        <Label htmlFor={ids.type}>{STRINGS.objectType}</Label>
        <NativeSelect
          id={ids.type}
          value={filter.object_type ?? ''}
          onChange={(event) => onChange({ ...filter, object_type: event.target.value || undefined })}
        >
          <option value="">{STRINGS.allTypes}</option>
          {OBJECT_TYPES.map((type) => (
            <option key={type} value={type}>
              {type}
            </option>
          ))}
        </NativeSelect>
      </div>
      <div className="grid gap-1">
        <Label htmlFor={ids.from}>{STRINGS.from}</Label>
        <Input
          id={ids.from}
          type="date"
          value={filter.created_at__gte ?? ''}
          onChange={(event) => onChange({ ...filter, created_at__gte: event.target.value || undefined })}
        />
      </div>
      <div className="grid gap-1">
        <Label htmlFor={ids.to}>{STRINGS.to}</Label>
        <Input
          id={ids.to}
          type="date"
          value={filter.created_at__lte ?? ''}
          onChange={(event) => onChange({ ...filter, created_at__lte: event.target.value || undefined })}
        />
      </div>
    </div>
  );
}

function AuditTable({ filter }: { filter: TAuditFilter }) {
  const [page, setPage] = useState(1);
  const log = useAuditLog({ ...filter, page, page_size: PAGE_SIZE });
  if (log.isPending) return <SectionLoading />;
  if (log.isError) return <SectionError error={log.error} onRetry={() => void log.refetch()} />;
  if (!log.data.results.length) return <p className="text-sm text-muted-foreground">{STRINGS.empty}</p>;
  const pages = Math.max(1, Math.ceil(log.data.count / PAGE_SIZE));
  return (
    <div className="grid gap-3">
      <Table aria-label={STRINGS.title} className="table-fixed">
        <TableHeader>
          <TableRow>
            <TableHead className="w-28 sm:w-40">{STRINGS.when}</TableHead>
            <TableHead className="w-32 sm:w-48">{STRINGS.actor}</TableHead>
            <TableHead className="w-32 sm:w-44">{STRINGS.action}</TableHead>
            <TableHead className="hidden md:table-cell">{STRINGS.changes}</TableHead>
            <TableHead className="hidden w-32 lg:table-cell">{STRINGS.where}</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {log.data.results.map((entry) => (
            <TableRow key={entry.id}>
              <TableCell className="align-top text-xs whitespace-normal">
                {formatDateTime(entry.created_at)}
              </TableCell>
              <TableCell className="align-top text-xs break-words whitespace-normal">
                {entry.actor.name || `#${entry.actor.id ?? ''}`}
                {entry.actor.type === 'api_key' ? (
                  <span className="block text-muted-foreground">{STRINGS.apiKey}</span>
                ) : null}
              </TableCell>
              <TableCell className="align-top text-xs break-words whitespace-normal">
                <code>{entry.action}</code>
                {entry.object_id ? (
                  <span className="block text-muted-foreground">#{entry.object_id}</span>
                ) : null}
                <div className="mt-1 md:hidden">
                  <Changes entry={entry} />
                </div>
              </TableCell>
              <TableCell className="hidden align-top whitespace-normal md:table-cell">
                <Changes entry={entry} />
              </TableCell>
              <TableCell className="hidden align-top text-xs break-words whitespace-normal lg:table-cell">
                {entry.ip}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      <div className="flex items-center justify-between gap-2 text-sm">
        <Button
          type="button"
          variant="outline"
          size="sm"
          disabled={!log.data.previous}
          onClick={() => setPage(page - 1)}
        >
          {STRINGS.previous}
        </Button>
        <span>{STRINGS.page(page, pages)}</span>
        <Button
          type="button"
          variant="outline"
          size="sm"
          disabled={!log.data.next}
          onClick={() => setPage(page + 1)}
        >
          {STRINGS.next}
        </Button>
      </div>
    </div>
  );
}

export function AuditLogTab() {
  const { can, ready } = usePermissions();
  const [filter, setFilter] = useState<TAuditFilter>({});
  const download = useDownloadAuditLog();
  const allowed = can('team.manage');
  return (
    <Card>
      <CardHeader>
        <CardTitle>{STRINGS.title}</CardTitle>
        <CardDescription>{STRINGS.description}</CardDescription>
        {allowed ? (
          <CardAction>
            <Button
              type="button"
              variant="outline"
              disabled={download.isPending}
              onClick={() =>
                download.mutate(filter, { onError: (error) => reportApiError(error, { toast: true }) })
              }
            >
              {download.isPending ? STRINGS.downloading : STRINGS.download}
            </Button>
          </CardAction>
        ) : null}
      </CardHeader>
      <CardContent className="grid gap-4">
        {!ready ? (
          <SectionLoading />
        ) : allowed ? (
          <>
            <Filters filter={filter} onChange={setFilter} />
            <AuditTable key={JSON.stringify(filter)} filter={filter} />
          </>
        ) : (
          <p className="text-sm">{STRINGS.notAllowed}</p>
        )}
      </CardContent>
    </Card>
  );
}
