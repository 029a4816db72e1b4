// The WhatsApp templates: name, language, category, review status and the body as written, with
// its {{placeholders}}; an approved one offers "Send to…", a WhatsApp campaign with it chosen.
import type { TWhatsappTemplate } from '@titan/contracts';
import { SendIcon } from 'lucide-react';
import { Link } from 'react-router';

import { Button } from '../../../components/ui/button';

import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../../components/ui/table';
import { newCampaignPath } from '../../../config/paths';
import { templateComponentText } from '../../../lib/whatsapp/templates';
import { WHATSAPP_STRINGS } from '../strings';
import { TemplateStatusBadge } from './status-badge';

const S = WHATSAPP_STRINGS.templates;

/** `canSend`: the member may write campaigns (engage.write). */
export function TemplatesTable({ templates, canSend }: { templates: TWhatsappTemplate[]; canSend: boolean }) {
  return (
    <Table aria-label={S.tableLabel}>
      <TableHeader>
        <TableRow>
          <TableHead>{S.columns.name}</TableHead>
          <TableHead>{S.columns.language}</TableHead>
          <TableHead>{S.columns.category}</TableHead>
          <TableHead>{S.columns.status}</TableHead>
          <TableHead>{S.columns.body}</TableHead>
          {canSend ? (
            <TableHead>
              <span className="sr-only">{S.columns.actions}</span>
            </TableHead>
          ) : null}
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
            {canSend ? (
              <TableCell className="text-right">
                {template.status === 'APPROVED' ? (
                  <Button asChild variant="outline" size="sm">
                    <Link
                      to={newCampaignPath({
                        channel: 'whatsapp',
                        whatsappTemplate: { name: template.name, language: template.language },
                      })}
                      aria-label={S.sendToLabel(template.name, template.language)}
                    >
                      <SendIcon aria-hidden="true" />
                      {S.sendTo}
                    </Link>
                  </Button>
                ) : null}
              </TableCell>
            ) : null}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
