// The WhatsApp templates: name, language, category, review status and the body as written, with
// its {{placeholders}}.
import type { TWhatsappTemplate } from '@titan/contracts';

import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../../components/ui/table';
import { templateComponentText } from '../../../lib/whatsapp/templates';
import { WHATSAPP_STRINGS } from '../strings';
import { TemplateStatusBadge } from './status-badge';

const S = WHATSAPP_STRINGS.templates;

export function TemplatesTable({ templates }: { templates: TWhatsappTemplate[] }) {
  return (
    <Table aria-label={S.tableLabel}>
      <TableHeader>
        <TableRow>
          <TableHead>{S.columns.name}</TableHead>
          <TableHead>{S.columns.language}</TableHead>
          <TableHead>{S.columns.category}</TableHead>
          <TableHead>{S.columns.status}</TableHead>
          <TableHead>{S.columns.body}</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {templates.map((template) => (
          <TableRow key={template.id}>
            <TableCell className="font-medium">{template.name}</TableCell>
            <TableCell>{template.language}</TableCell>
            <TableCell className="capitalize">{template.category.toLowerCase()}</TableCell>
            <TableCell>
              <TemplateStatusBadge status={template.status} />
            </TableCell>
            <TableCell className="max-w-md whitespace-normal">
              <p className="line-clamp-2 text-sm whitespace-pre-wrap text-muted-foreground">
                {templateComponentText(template, 'BODY') ?? WHATSAPP_STRINGS.templates.none}
              </p>
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
