// SMS to a customer list (`/api/agents/send-sms/` with `list_id`): the broadcasts module fans the
// list out; this channel turns each batch of customers into recorded sends — rendered,
// suppression-checked, with the broadcast's idempotency keys — and hands the queued ones to the
// `sms.send` job. A customer without a usable number, or whose text cannot be rendered, is
// counted with the reason.
import type { TEmailBatch, TMarketingConsent } from '@titan/contracts';
import {
  type BroadcastChannel,
  type BroadcastDeps,
  broadcastSendKey,
  findBroadcast,
  queueAddressedSends,
  sharedPerBroadcast,
} from '../broadcasts';
import { asBatch, startListSend } from '../email';
import {
  buildSmsSend,
  e164Of,
  enqueueSmsSends,
  smsContext,
  SMS_SEND_ERRORS,
  type SmsDeps,
} from './sms.service';

/** What a list send asks for, as the broadcast keeps it. */
export type SmsBroadcastRequest = {
  body?: string;
  template_id?: number;
  variables?: Record<string, unknown>;
  /** Who the list send may reach (marketing consent); subscribed customers only when absent. */
  consent?: TMarketingConsent;
};

const templateOf = (r: SmsBroadcastRequest) =>
  r.template_id ? { id: r.template_id, variables: r.variables } : undefined;

export const SMS_SKIP_REASONS = {
  noPhone: 'no phone number',
  badPhone: 'phone number not in international format',
  notRendered: 'text could not be rendered',
} as const;

export function smsBroadcastChannel(deps: SmsDeps): BroadcastChannel {
  const contextOf = sharedPerBroadcast((broadcast) =>
    smsContext(deps, {
      businessId: broadcast.businessId,
      template: templateOf(broadcast.request as SmsBroadcastRequest),
    }),
  );
  return {
    async prepare(broadcast) {
      await contextOf(broadcast);
    },
    async queueBatch(tx, broadcast, customers) {
      const request = broadcast.request as SmsBroadcastRequest;
      const ctx = await contextOf(broadcast);
      const withPhone = customers.filter((c) => c.phone?.trim());
      const numbered = withPhone.flatMap((c) => {
        const number = e164Of(c.phone);
        return number ? [{ customer: c, address: number }] : [];
      });
      return queueAddressedSends(tx, broadcast, {
        channel: 'sms',
        addressed: numbered,
        unaddressed: {
          [SMS_SKIP_REASONS.noPhone]: customers.length - withPhone.length,
          [SMS_SKIP_REASONS.badPhone]: withPhone.length - numbered.length,
        },
        consentOf: (c) => c.smsStatus,
        build: (c, number) =>
          buildSmsSend(
            ctx,
            {
              businessId: broadcast.businessId,
              body: request.body,
              template: templateOf(request),
              cause: 'broadcast',
              causeId: broadcast.id,
              createdBy: broadcast.createdBy,
              idempotencyKey: broadcastSendKey(broadcast.id, c.id),
            },
            {
              number,
              customerId: c.id,
              customer: { ...c.fields, id: c.id, name: c.name, email: c.email, phone: c.phone },
            },
          ),
        notRendered: SMS_SKIP_REASONS.notRendered,
        suppressedError: SMS_SEND_ERRORS.suppressed(),
      });
    },
    dispatch: (sendIds) => enqueueSmsSends(deps.jobs, sendIds),
  };
}

/**
 * Starts texts to every customer of a list: the account and the template are checked first (their
 * 409/404 answer the request); then the broadcast runs in the background.
 */
export async function sendSmsToList(
  deps: SmsDeps,
  broadcasts: BroadcastDeps,
  input: { businessId: number; listId: number; request: SmsBroadcastRequest; createdBy: number | null },
): Promise<TEmailBatch> {
  return startListSend(broadcasts, 'sms', input, () =>
    smsContext(deps, { businessId: input.businessId, template: templateOf(input.request) }),
  );
}

/** A list send's progress (a broadcast of this business; 404 otherwise). */
export async function smsBatchProgress(
  deps: SmsDeps,
  businessId: number,
  batchId: string,
): Promise<TEmailBatch> {
  return asBatch(await findBroadcast(deps.db, businessId, batchId));
}
