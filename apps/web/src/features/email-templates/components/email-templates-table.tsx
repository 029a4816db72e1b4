// The email templates: name (opens the editor), subject as written, when last saved, the version,
// and delete after confirming for those who may.
import type { TEmailTemplateSummary } from '@titan/contracts';
import { Trash2Icon } from 'lucide-react';
import { Link } from 'react-router';

import { ConfirmAction } from '../../../components/confirm-action';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../../components/ui/table';
import { emailTemplatePath } from '../../../config/paths';
import { formatDateTime } from '../../../lib/format';
import { EMAIL_TEMPLATE_STRINGS as S } from '../strings';

export function EmailTemplatesTable({
  templates,
  canDelete,
  deleting,
  onDelete,
}: {
  templates: TEmailTemplateSummary[];
  canDelete: boolean;
  deleting: boolean;
  onDelete: (template: TEmailTemplateSummary) => void;
}) {
  return (
    <Table aria-label={S.tableLabel}>
      <TableHeader>
        <TableRow>
          <TableHead>{S.columns.name}</TableHead>
          <TableHead>{S.columns.subject}</TableHead>
          <TableHead>{S.columns.updated}</TableHead>
          <TableHead>{S.columns.version}</TableHead>
          {canDelete ? (
            <TableHead>
              <span className="sr-only">{S.columns.actions}</span>
            </TableHead>
          ) : null}
        </TableRow>
      </TableHeader>
      <TableBody>
        {templates.map((t) => (
          <TableRow key={t.id}>
            <TableCell className="font-medium">
              <Link to={emailTemplatePath(t.id)} className="hover:underline" aria-label={S.edit(t.name)}>
                {t.name}
              </Link>
            </TableCell>
            <TableCell className="max-w-md truncate font-mono text-xs">{t.subject}</TableCell>
            <TableCell>{formatDateTime(t.updated_at)}</TableCell>
            <TableCell>{S.version(t.version)}</TableCell>
            {canDelete ? (
              <TableCell className="text-right">
                <ConfirmAction
                  trigger={<Trash2Icon aria-hidden="true" />}
                  triggerLabel={`${S.delete} ${t.name}`}
                  title={S.deleteTitle(t.name)}
                  description={S.deleteText}
                  confirmLabel={S.delete}
                  disabled={deleting}
                  onConfirm={() => onDelete(t)}
                />
              </TableCell>
            ) : null}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
