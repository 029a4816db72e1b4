// What the agent screen offers to choose from: the business's lists and segments (with today's
// member counts, a segment's counted live by the server) and its email templates. WhatsApp templates
// come from lib/whatsapp/templates, shared with the inbox.
import { queryOptions, useQuery } from '@tanstack/react-query';
import {
  PAGE_SIZE_MAX,
  ZCustomerList,
  ZEmailTemplateSummary,
  ZEnvelope,
  ZPage,
  type TAgentChannel,
  type TCustomerList,
  type TEmailTemplateSummary,
} from '@titan/contracts';
import { z } from 'zod';

import { protectedClient } from '../../../lib/protected-client';
import { BUSINESS_SCOPE } from '../../../lib/query-client';
import { whatsappTemplatesQueryOptions } from '../../../lib/whatsapp/templates';

/** Lists beyond the first pages are rare for an agent's audience; this many are offered. */
const MAX_LIST_PAGES = 5;

export function useAudienceLists() {
  return useQuery({
    queryKey: [BUSINESS_SCOPE, 'customer-lists', 'for-agents'],
    queryFn: async ({ signal }): Promise<TCustomerList[]> => {
      const lists: TCustomerList[] = [];
      for (let page = 1; page <= MAX_LIST_PAGES; page += 1) {
        const { data } = await protectedClient.get('/api/business/customer-lists/', {
          params: { page, page_size: PAGE_SIZE_MAX },
          signal,
        });
        const result = ZEnvelope(ZPage(ZCustomerList)).parse(data).result;
        lists.push(...result.results);
        if (result.next === null) break;
      }
      return lists;
    },
    meta: { errorShownOnScreen: true },
  });
}

function emailTemplatesQuery() {
  return queryOptions({
    queryKey: [BUSINESS_SCOPE, 'email-templates', 'list'],
    queryFn: async ({ signal }): Promise<TEmailTemplateSummary[]> => {
      const { data } = await protectedClient.get('/api/template/', { signal });
      return ZEnvelope(z.array(ZEmailTemplateSummary)).parse(data).result;
    },
    meta: { errorShownOnScreen: true },
  });
}

export function useEmailTemplateOptions() {
  return useQuery(emailTemplatesQuery());
}

/** "channel:id" → a template's name, for the run log's messages (WhatsApp's as last synced). */
export function useTemplateNames(channel: TAgentChannel): Map<string, string> {
  const email = useQuery({ ...emailTemplatesQuery(), enabled: channel === 'email' });
  const whatsapp = useQuery({ ...whatsappTemplatesQueryOptions({}), enabled: channel === 'whatsapp' });
  const names = new Map<string, string>();
  for (const t of email.data ?? []) names.set(`email:${t.id}`, t.name);
  for (const t of whatsapp.data ?? []) names.set(`whatsapp:${t.id}`, `${t.name} (${t.language})`);
  return names;
}
