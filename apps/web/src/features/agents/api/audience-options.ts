// What the agent screen offers to choose from, through the shared fetchers: the business's lists and
// segments (lib/customer-lists, with today's member counts, a segment's counted live by the server),
// its email templates (lib/email-templates) and its WhatsApp templates (lib/whatsapp/templates).
import { useQuery } from '@tanstack/react-query';
import { type TAgentChannel } from '@titan/contracts';

import { customerListChoicesQueryOptions } from '../../../lib/customer-lists';
import { emailTemplatesQueryOptions } from '../../../lib/email-templates';
import { whatsappTemplatesQueryOptions } from '../../../lib/whatsapp/templates';

/** The lists and segments for the audience picker; the field shows a failure itself. */
export function useAudienceLists() {
  return useQuery({ ...customerListChoicesQueryOptions(), meta: { errorShownOnScreen: true } });
}

export function useEmailTemplateOptions() {
  return useQuery(emailTemplatesQueryOptions());
}

/** "channel:id" → a template's name, for the run log's messages (WhatsApp's as last synced). */
export function useTemplateNames(channel: TAgentChannel): Map<string, string> {
  const email = useQuery({ ...emailTemplatesQueryOptions(), enabled: channel === 'email' });
  const whatsapp = useQuery({ ...whatsappTemplatesQueryOptions({}), enabled: channel === 'whatsapp' });
  const names = new Map<string, string>();
  for (const t of email.data ?? []) names.set(`email:${t.id}`, t.name);
  for (const t of whatsapp.data ?? []) names.set(`whatsapp:${t.id}`, `${t.name} (${t.language})`);
  return names;
}
