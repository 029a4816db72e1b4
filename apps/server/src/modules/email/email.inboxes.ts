// Inbox addresses (issue 30; next-api.md "Every channel in the inbox"): `support@acme.com`, or any
// local part, on a verified sending domain of the business. Mail reaching Titan's SMTP listener for
// it opens or continues the sender's email conversation (email.inbound.ts). It reaches Titan either
// by the domain's MX pointing at Titan, or by the business's own mail server relaying that one
// address to Titan's MX: both are shown as records to publish. An address belongs to one business.
import type { TCreateEmailInboxRequest, TEmailInbox, TEmailInboxRecord } from '@titan/contracts';
import type { Db } from '../../db/client';
import { AppError } from '../../platform/errors';
import { findGroup } from '../chat-groups';
import { findDomainOf } from '../email-domains';
import * as repo from './email.repository';

export const INBOX_ERRORS = {
  noDomain: 'No sending domain of this business has this id.',
  notVerified: 'Verify this domain first (Settings → Email domains): only a verified domain receives mail.',
  taken: 'This address is already an inbox address.',
  noGroup: 'No chat group of this business has this id.',
  notFound: 'No inbox address of this business has this id.',
} as const;

/** The host Titan receives mail on: `mx.` and the public host. */
export const inboundHost = (publicUrl: string) => `mx.${new URL(publicUrl).hostname.replace(/^\[|\]$/g, '')}`;

function recordsFor(address: string, domain: string, mxHost: string): TEmailInboxRecord[] {
  return [
    {
      purpose: 'receive',
      type: 'MX',
      host: domain,
      value: mxHost,
      priority: 10,
      detail: `Publish this MX record when all mail for ${domain} may come to Titan.`,
    },
    {
      purpose: 'forward',
      type: 'FORWARD',
      host: address,
      value: mxHost,
      priority: null,
      detail: `Or keep your mail server and have it relay mail for ${address} to ${mxHost} (SMTP, port 25).`,
    },
  ];
}

export function toInbox(row: repo.EmailInboxRow, domain: string, publicUrl: string): TEmailInbox {
  return {
    id: row.id,
    domain_id: row.domainId,
    local_part: row.localPart,
    address: row.address,
    chat_group_id: row.chatGroupId,
    records: recordsFor(row.address, domain, inboundHost(publicUrl)),
    created_at: row.createdAt.toISOString(),
  };
}

type InboxDeps = { db: Db; config: { PUBLIC_URL: string } };

export async function listInboxes(deps: InboxDeps, businessId: number): Promise<TEmailInbox[]> {
  const rows = await repo.listInboxes(deps.db, businessId);
  return rows.map((r) => toInbox(r, r.address.slice(r.address.lastIndexOf('@') + 1), deps.config.PUBLIC_URL));
}

export async function createInbox(
  deps: InboxDeps,
  businessId: number,
  input: TCreateEmailInboxRequest,
): Promise<TEmailInbox> {
  const domain = await findDomainOf(deps, businessId, input.domain_id);
  if (!domain) throw new AppError('not_found', INBOX_ERRORS.noDomain, { domain_id: [INBOX_ERRORS.noDomain] });
  if (domain.status !== 'verified')
    throw new AppError('conflict', INBOX_ERRORS.notVerified, { domain_id: [INBOX_ERRORS.notVerified] });
  if (input.chat_group_id && !(await findGroup(deps.db, businessId, input.chat_group_id)))
    throw new AppError('not_found', INBOX_ERRORS.noGroup, { chat_group_id: [INBOX_ERRORS.noGroup] });
  const address = `${input.local_part}@${domain.domain}`;
  const row = await repo.insertInbox(deps.db, {
    businessId,
    domainId: domain.id,
    localPart: input.local_part,
    address,
    chatGroupId: input.chat_group_id ?? null,
  });
  if (!row) throw new AppError('conflict', INBOX_ERRORS.taken, { local_part: [INBOX_ERRORS.taken] });
  return toInbox(row, domain.domain, deps.config.PUBLIC_URL);
}

export async function deleteInbox(deps: InboxDeps, businessId: number, id: number): Promise<void> {
  if (!(await repo.deleteInbox(deps.db, businessId, id))) throw AppError.notFound(INBOX_ERRORS.notFound);
}
