// Email to a customer list (`/api/agents/send-mail/` with `list_id`): the broadcasts module fans
// the list out; this channel turns each batch of customers into recorded sends — rendered,
// suppression-checked, with the broadcast's idempotency keys — and hands the queued ones to the
// `email.send` job. What every mail shares (From, its domain, the template) is settled once per
// broadcast; a customer without an email address, or whose mail cannot be rendered, is counted
// with the reason.
import { CUSTOMER_LIST_ERRORS, type TEmailBatch, type TMarketingConsent } from '@titan/contracts';
import { AppError } from '../../platform/errors';
import {
  type BroadcastChannel,
  type BroadcastDeps,
  broadcastSendKey,
  findBroadcast,
  queueAddressedSends,
  sharedPerBroadcast,
  startBroadcast,
} from '../broadcasts';
import { customersOutOfTopic } from '../consent';
import { listExists } from '../customer-lists';
import { batchOf } from './email.batches';
import { buildSend, EMAIL_ERRORS, enqueueEmailSends, sendContext, type EmailDeps } from './email.service';

/** What a list send asks for, as the broadcast keeps it. */
export type EmailBroadcastRequest = {
  from: string;
  template_id?: number;
  variables?: Record<string, unknown>;
  subject?: string;
  html?: string;
  text?: string;
  /** Who the list send may reach (marketing consent); subscribed customers only when absent. */
  consent?: TMarketingConsent;
  /** A campaign of a consent topic: customers who left it are passed over; its mail names it. */
  topic_id?: number | null;
};

const contentOf = (r: EmailBroadcastRequest) => ({
  from: r.from,
  template: r.template_id ? { id: r.template_id, variables: r.variables } : undefined,
  subject: r.subject,
  html: r.html,
  text: r.text,
  topicId: r.topic_id ?? null,
});

export const SKIP_REASONS = {
  noEmail: 'no email address',
  outOfTopic: 'out of topic',
  notRendered: 'mail could not be rendered',
} as const;

export function emailBroadcastChannel(deps: EmailDeps): BroadcastChannel {
  const contextOf = sharedPerBroadcast((broadcast) =>
    sendContext(deps, {
      businessId: broadcast.businessId,
      ...contentOf(broadcast.request as EmailBroadcastRequest),
    }),
  );
  return {
    async prepare(broadcast) {
      await contextOf(broadcast);
    },
    async queueBatch(tx, broadcast, customers) {
      const request = broadcast.request as EmailBroadcastRequest;
      // Settled by prepare() just before this batch's transaction.
      const ctx = await contextOf(broadcast);
      const withEmail = customers.filter((c) => c.email?.trim());
      return queueAddressedSends(tx, broadcast, {
        channel: 'email',
        addressed: withEmail.map((c) => ({ customer: c, address: c.email!.trim() })),
        unaddressed: { [SKIP_REASONS.noEmail]: customers.length - withEmail.length },
        // Who left the campaign's topic (even after the campaign fixed its recipients) is passed over.
        passOver: request.topic_id
          ? {
              reason: SKIP_REASONS.outOfTopic,
              customerIds: await customersOutOfTopic(
                tx,
                request.topic_id,
                withEmail.map((c) => c.id),
              ),
            }
          : undefined,
        consentOf: (c) => c.emailStatus,
        build: (c, address) =>
          buildSend(
            deps,
            ctx,
            {
              businessId: broadcast.businessId,
              ...contentOf(request),
              cause: 'broadcast',
              causeId: broadcast.id,
              createdBy: broadcast.createdBy,
              idempotencyKey: broadcastSendKey(broadcast.id, c.id),
              unsubscribeFooter: true,
            },
            {
              address,
              customerId: c.id,
              customer: { ...c.fields, id: c.id, name: c.name, email: c.email, phone: c.phone },
            },
          ),
        notRendered: SKIP_REASONS.notRendered,
        suppressedError: EMAIL_ERRORS.suppressed(),
      });
    },
    dispatch: (sendIds) => enqueueEmailSends(deps.jobs, sendIds),
  };
}

/**
 * Starts mail to every customer of a list: From, its verified domain and the template are checked
 * first (their 409/404/400 answer the request); then the broadcast runs in the background.
 */
export async function sendToList(
  deps: EmailDeps,
  broadcasts: BroadcastDeps,
  input: { businessId: number; listId: number; request: EmailBroadcastRequest; createdBy: number | null },
): Promise<TEmailBatch> {
  return startListSend(broadcasts, 'email', input, () =>
    sendContext(deps, { businessId: input.businessId, ...contentOf(input.request) }),
  );
}

/**
 * Starts a channel's send to every customer of a list, answered as a batch: the list must be the
 * business's (404 on list_id), and `check` settles what the channel needs first (its 4xx answer
 * the request); then the broadcast runs in the background.
 */
export async function startListSend(
  broadcasts: BroadcastDeps,
  channel: string,
  input: { businessId: number; listId: number; request: Record<string, unknown>; createdBy: number | null },
  check: () => Promise<unknown>,
): Promise<TEmailBatch> {
  if (!(await listExists(broadcasts.db, input.businessId, input.listId)))
    throw new AppError('not_found', CUSTOMER_LIST_ERRORS.notFound, {
      list_id: [CUSTOMER_LIST_ERRORS.notFound],
    });
  await check();
  return asBatch(await startBroadcast(broadcasts, { ...input, channel }));
}

/** A broadcast's progress in the shape of a bulk send's batch (every send recorded once it ended). */
export function asBatch(b: Awaited<ReturnType<typeof findBroadcast>>): TEmailBatch {
  return batchOf(
    { id: b.id, total: b.total, createdAt: b.created_at },
    b.sends,
    b.status === 'done' || b.status === 'cancelled' || b.status === 'failed',
  );
}

/** A bulk send's progress: a batch of recipients, or a broadcast to a list. */
export async function progressOf(
  deps: EmailDeps,
  businessId: number,
  batchId: string,
  batchProgress: () => Promise<TEmailBatch>,
): Promise<TEmailBatch> {
  try {
    return await batchProgress();
  } catch (err) {
    if (!(err instanceof AppError && err.code === 'not_found')) throw err;
    return asBatch(await findBroadcast(deps.db, businessId, batchId));
  }
}
