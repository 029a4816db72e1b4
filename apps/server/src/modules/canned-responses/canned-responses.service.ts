// Canned responses: saved replies, found by short code or text, rendered for one conversation with
// the customer, the agent answering and the business filled in (Liquid, canned-responses.liquid.ts).
import {
  CANNED_ERRORS,
  type TCannedResponse,
  type TCannedResponseQuery,
  type TCannedResponseRequest,
  type TRenderedCanned,
  type TUpdateCannedResponseRequest,
} from '@titan/contracts';
import type { Db } from '../../db/client';
import type { Storage } from '../../platform/storage';
import { AppError } from '../../platform/errors';
import { sqlStateOf } from '../../platform/db-errors';
import { findUserById } from '../auth';
import { findBusinessById } from '../business';
import { findConversationView } from '../conversations';
import { type InboxScope } from '../../platform/inbox-scope';
import { findCustomerById } from '../directory';
import { findBusinessFile } from '../files';
import * as repo from './canned-responses.repository';
import { liquidProblem, renderCanned, type CannedVariables } from './canned-responses.liquid';

const attachmentOf = (row: repo.CannedRow) =>
  row.attachmentKey
    ? {
        key: row.attachmentKey,
        file_name: row.attachmentName ?? 'file',
        mime_type: row.attachmentMimeType ?? 'application/octet-stream',
        size: row.attachmentSize ?? 0,
      }
    : null;

export const toCanned = (row: repo.CannedRow): TCannedResponse => ({
  id: row.id,
  short_code: row.shortCode,
  content: row.content,
  attachment_id: row.attachmentKey,
  attachment: attachmentOf(row),
  created_at: row.createdAt.toISOString(),
  updated_at: row.updatedAt.toISOString(),
});

export async function findCannedResponses(
  db: Db,
  businessId: number,
  query: TCannedResponseQuery,
): Promise<TCannedResponse[]> {
  return (await repo.listCanned(db, businessId, query.search || undefined)).map(toCanned);
}

const codeTaken = () => AppError.fields({ short_code: [CANNED_ERRORS.shortCodeTaken] });

/** The values to store from a request: its Liquid checked, its file this business's (else 404). */
async function valuesOf(
  db: Db,
  businessId: number,
  input: Partial<TCannedResponseRequest>,
): Promise<Partial<repo.CannedValues>> {
  if (input.content !== undefined) {
    const problem = liquidProblem(input.content);
    if (problem) throw AppError.fields({ content: [problem] });
  }
  const values: Partial<repo.CannedValues> = {
    ...(input.short_code !== undefined ? { shortCode: input.short_code } : {}),
    ...(input.content !== undefined ? { content: input.content } : {}),
  };
  if (input.attachment_id === null) {
    Object.assign(values, {
      attachmentKey: null,
      attachmentName: null,
      attachmentMimeType: null,
      attachmentSize: null,
    });
  } else if (input.attachment_id !== undefined) {
    const file = await findBusinessFile(db, businessId, input.attachment_id);
    if (!file) {
      throw new AppError('not_found', CANNED_ERRORS.unknownFile, {
        attachment_id: [CANNED_ERRORS.unknownFile],
      });
    }
    Object.assign(values, {
      attachmentKey: file.key,
      attachmentName: file.fileName,
      attachmentMimeType: file.mimeType,
      attachmentSize: file.size,
    });
  }
  return values;
}

async function uniqueCode<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (sqlStateOf(err) === '23505') throw codeTaken();
    throw err;
  }
}

export async function createCannedResponse(
  db: Db,
  businessId: number,
  userId: number | null,
  input: TCannedResponseRequest,
): Promise<TCannedResponse> {
  if (await repo.findCannedByCode(db, businessId, input.short_code)) throw codeTaken();
  const values = await valuesOf(db, businessId, input);
  const row = await uniqueCode(() =>
    repo.insertCanned(db, {
      businessId,
      createdBy: userId,
      shortCode: input.short_code,
      content: input.content,
      ...values,
    }),
  );
  return toCanned(row);
}

export async function updateCannedResponse(
  db: Db,
  businessId: number,
  id: number,
  input: TUpdateCannedResponseRequest,
): Promise<TCannedResponse> {
  if (!(await repo.findCanned(db, businessId, id))) throw AppError.notFound();
  if (input.short_code !== undefined) {
    const other = await repo.findCannedByCode(db, businessId, input.short_code);
    if (other && other.id !== id) throw codeTaken();
  }
  const values = await valuesOf(db, businessId, input);
  const row = await uniqueCode(() => repo.updateCanned(db, businessId, id, values));
  if (!row) throw AppError.notFound();
  return toCanned(row);
}

export async function deleteCannedResponse(db: Db, businessId: number, id: number): Promise<void> {
  if (!(await repo.deleteCanned(db, businessId, id))) throw AppError.notFound();
}

const firstWord = (s: string) => s.trim().split(/\s+/)[0] ?? '';

/**
 * The response's text for one conversation the caller can see (else 404 naming conversation_id):
 * `customer` is the person who started it, `agent` the caller (an API key has no name), `business`
 * the caller's business.
 */
export async function renderCannedResponse(
  { db, storage }: { db: Db; storage: Storage },
  scope: InboxScope,
  userId: number | null,
  id: number,
  conversationId: number,
): Promise<TRenderedCanned> {
  const row = await repo.findCanned(db, scope.businessId, id);
  if (!row) throw AppError.notFound();
  let conversation;
  try {
    conversation = await findConversationView(db, scope, conversationId);
  } catch (err) {
    if (err instanceof AppError && err.code === 'not_found') {
      throw new AppError('not_found', CANNED_ERRORS.noSuchConversation, {
        conversation_id: [CANNED_ERRORS.noSuchConversation],
      });
    }
    throw err;
  }
  const [customer, user, business] = await Promise.all([
    conversation.initiator ? findCustomerById(db, scope.businessId, conversation.initiator.id) : null,
    userId === null ? null : findUserById(db, userId),
    findBusinessById(db, scope.businessId),
  ]);
  const customerName = customer?.name ?? '';
  const agentName = user ? `${user.firstName} ${user.lastName}`.trim() : '';
  const variables: CannedVariables = {
    customer: {
      name: customerName,
      first_name: firstWord(customerName),
      email: customer?.email ?? '',
      phone: customer?.phone ?? '',
    },
    agent: { name: agentName, first_name: firstWord(agentName), email: user?.email ?? '' },
    business: { name: business?.name ?? '' },
  };
  let content: string;
  try {
    content = await renderCanned(row.content, variables);
  } catch (err) {
    // Saved text parses (checked on save); a render that still stops (its time limit) says why.
    throw AppError.fields({ content: [err instanceof Error ? err.message.split('\n')[0]! : String(err)] });
  }
  const attachment = attachmentOf(row);
  return {
    content,
    attachment: attachment && {
      ...attachment,
      url: await storage.signedUrl(attachment.key, attachment.file_name),
    },
  };
}
