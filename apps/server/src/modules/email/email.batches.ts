// Bulk sends (engage.md §5, `/api/agents/send-mail/` with many recipients): one batch, its
// recipients fanned into sends (`broadcast`, cause_id = the batch id) in chunks — each chunk
// checked against the suppression list in one query and written in one statement — and handed
// to the `email.send` job in chunks. Progress is read from the sends themselves.
import type { TEmailBatch } from '@titan/contracts';
import { AppError } from '../../platform/errors';
import * as sends from '../sends';
import { normalizeAddress, suppressedAmong } from '../suppressions';
import {
  buildSend,
  EMAIL_ERRORS,
  enqueueEmailSends,
  resolveRecipient,
  sendContext,
  type EmailDeps,
  type SendEmailInput,
} from './email.service';
import * as repo from './email.repository';

export type BatchRecipient = { customerId?: number; address?: string; variables?: Record<string, unknown> };

/** Recipients written per statement. */
const CHUNK = 500;

const PENDING = new Set(['queued', 'sending']);

export async function sendBatch(
  deps: EmailDeps,
  input: Omit<SendEmailInput, 'to' | 'cause' | 'causeId' | 'idempotencyKey'> & {
    recipients: BatchRecipient[];
  },
): Promise<TEmailBatch> {
  const ctx = await sendContext(deps, input);
  // Every recipient is checked before anything is written: a bad one refuses the whole batch.
  const resolved = [];
  for (const [i, r] of input.recipients.entries()) {
    try {
      resolved.push({
        recipient: await resolveRecipient(deps.db, input.businessId, {
          customerId: r.customerId,
          address: r.address,
        }),
        variables: r.variables,
      });
    } catch (err) {
      if (err instanceof AppError && (err.code === 'not_found' || err.code === 'bad_request')) {
        throw AppError.fields({
          [`recipients.${i}`]: [
            err.code === 'not_found' ? 'No such customer.' : EMAIL_ERRORS.noCustomerEmail,
          ],
        });
      }
      throw err;
    }
  }
  const batch = await repo.insertBatch(deps.db, {
    businessId: input.businessId,
    total: resolved.length,
    createdBy: input.createdBy ?? null,
  });
  for (let i = 0; i < resolved.length; i += CHUNK) {
    const chunk = resolved.slice(i, i + CHUNK);
    const suppressed = await suppressedAmong(
      deps.db,
      input.businessId,
      'email',
      chunk.map((c) => c.recipient.address),
    );
    const rows = chunk.map(({ recipient, variables }) => {
      const send = buildSend(
        deps,
        ctx,
        {
          ...input,
          cause: 'broadcast',
          causeId: batch.id,
          template: input.template
            ? { id: input.template.id, variables: { ...input.template.variables, ...variables } }
            : undefined,
        },
        recipient,
      );
      return suppressed.has(normalizeAddress(recipient.address))
        ? { ...send, status: 'suppressed' as const, errorMessage: EMAIL_ERRORS.suppressed() }
        : { ...send, status: 'queued' as const };
    });
    const written = await sends.createMany(deps.db, rows);
    await enqueueEmailSends(
      deps.jobs,
      written.filter((s) => s.status === 'queued').map((s) => s.id),
    );
  }
  return batchProgress(deps, input.businessId, batch.id);
}

export async function batchProgress(
  deps: Pick<EmailDeps, 'db'>,
  businessId: number,
  batchId: string,
): Promise<TEmailBatch> {
  const batch = await repo.findBatch(deps.db, businessId, batchId);
  if (!batch) throw AppError.notFound();
  const statuses = await sends.countSendsByCause(deps.db, businessId, 'broadcast', batchId);
  return batchOf({ id: batch.id, total: batch.total, createdAt: batch.createdAt.toISOString() }, statuses);
}

/**
 * A bulk send's progress from its sends counted by status. Done once nothing is pending and every
 * send is recorded: `allRecorded`, or (unsaid) as many sends as the batch's total.
 */
export function batchOf(
  batch: { id: string; total: number; createdAt: string },
  statuses: Record<string, number>,
  allRecorded?: boolean,
): TEmailBatch {
  const sum = (pick: (s: string) => boolean) =>
    Object.entries(statuses)
      .filter(([status]) => pick(status))
      .reduce((n, [, count]) => n + count, 0);
  const pending = sum((s) => PENDING.has(s));
  return {
    batch_id: batch.id,
    total: batch.total,
    pending,
    sent: sum((s) => !PENDING.has(s) && !['failed', 'suppressed', 'cancelled'].includes(s)),
    failed: sum((s) => s === 'failed'),
    suppressed: sum((s) => s === 'suppressed'),
    statuses,
    done: pending === 0 && (allRecorded ?? sum(() => true) >= batch.total),
    created_at: batch.createdAt,
  };
}
