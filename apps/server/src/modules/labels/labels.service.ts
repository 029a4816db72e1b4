// A business's labels: manage them (Settings → Labels), and put them on conversations and
// customers. Every id is checked against the caller's business first: a label of another business
// is 404 naming the field, before anything is written.
import {
  LABEL_ERRORS,
  type TLabel,
  type TLabelRef,
  type TLabelRequest,
  type TUpdateLabelRequest,
} from '@titan/contracts';
import type { Db, Queryable } from '../../db/client';
import { AppError } from '../../platform/errors';
import { sqlStateOf } from '../../platform/db-errors';
import { emitCustomerEvents } from '../journeys';
import * as repo from './labels.repository';

export const toLabel = (row: repo.LabelRow): TLabel => ({
  id: row.id,
  name: row.name,
  color: row.color,
  created_at: row.createdAt.toISOString(),
  updated_at: row.updatedAt.toISOString(),
});

export const toLabelRef = (row: repo.LabelRow): TLabelRef => ({
  id: row.id,
  name: row.name,
  color: row.color,
});

export async function findLabels(db: Db, businessId: number): Promise<TLabel[]> {
  return (await repo.listLabels(db, businessId)).map(toLabel);
}

const nameTaken = () => AppError.fields({ name: [LABEL_ERRORS.nameTaken] });

async function assertNameFree(db: Queryable, businessId: number, name: string, exceptId?: number) {
  if (await repo.findLabelByName(db, businessId, name, exceptId)) throw nameTaken();
}

/** A unique violation (two saves of one name at once) reads as the same field message. */
async function uniqueName<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (sqlStateOf(err) === '23505') throw nameTaken();
    throw err;
  }
}

export async function createLabel(db: Db, businessId: number, input: TLabelRequest): Promise<TLabel> {
  await assertNameFree(db, businessId, input.name);
  return toLabel(await uniqueName(() => repo.insertLabel(db, { businessId, ...input })));
}

export async function updateLabel(
  db: Db,
  businessId: number,
  id: number,
  input: TUpdateLabelRequest,
): Promise<TLabel> {
  if (!(await repo.findLabel(db, businessId, id))) throw AppError.notFound();
  if (input.name !== undefined) await assertNameFree(db, businessId, input.name, id);
  const row = await uniqueName(() => repo.updateLabel(db, businessId, id, input));
  if (!row) throw AppError.notFound();
  return toLabel(row);
}

export async function deleteLabel(db: Db, businessId: number, id: number): Promise<void> {
  if (!(await repo.deleteLabel(db, businessId, id))) throw AppError.notFound();
}

/**
 * The business's labels named by `ids`, in name order; any id that is not one of them (another
 * business's, a removed one) is 404 naming `field`.
 */
export async function resolveLabels(
  db: Queryable,
  businessId: number,
  ids: number[],
  field = 'label_ids',
): Promise<repo.LabelRow[]> {
  const wanted = [...new Set(ids)];
  const rows = await repo.findLabels(db, businessId, wanted);
  if (rows.length !== wanted.length) {
    throw new AppError('not_found', LABEL_ERRORS.noSuchLabel, { [field]: [LABEL_ERRORS.noSuchLabel] });
  }
  return rows;
}

export type LabelChange = { ownerId: number; added: TLabelRef[]; removed: TLabelRef[] };

/**
 * Puts labels on conversations or customers of the business, in the caller's transaction (the
 * owners are the caller's to check): `set` makes each owner's labels exactly `labelIds`, `add`
 * adds them to what each carries. Answers what changed, per owner (owners with no change are left out).
 */
export async function applyLabels(
  tx: Queryable,
  businessId: number,
  target: 'conversation' | 'customer',
  ownerIds: number[],
  labelIds: number[],
  mode: 'set' | 'add',
): Promise<LabelChange[]> {
  const wanted = await resolveLabels(tx, businessId, labelIds);
  const current = await repo.labelIdsOf(tx, target, ownerIds);
  const wantedIds = new Set(wanted.map((l) => l.id));
  const removedIds = new Set<number>();
  const changes: { ownerId: number; added: number[]; removed: number[] }[] = [];
  for (const ownerId of ownerIds) {
    const has = new Set(current.get(ownerId) ?? []);
    const added = [...wantedIds].filter((id) => !has.has(id));
    const removed = mode === 'set' ? [...has].filter((id) => !wantedIds.has(id)) : [];
    removed.forEach((id) => removedIds.add(id));
    if (added.length > 0 || removed.length > 0) changes.push({ ownerId, added, removed });
  }
  await repo.addLabels(
    tx,
    target,
    changes.flatMap((c) => c.added.map((labelId) => ({ ownerId: c.ownerId, labelId }))),
  );
  for (const c of changes) await repo.removeLabels(tx, target, c.ownerId, c.removed);
  // Removed labels are still the business's (or were: a label removed meanwhile has no name left).
  const known = new Map(
    [...wanted, ...(await repo.findLabels(tx, businessId, [...removedIds]))].map((l) => [
      l.id,
      toLabelRef(l),
    ]),
  );
  const refs = (ids: number[]) => ids.flatMap((id) => known.get(id) ?? []);
  // A label put on a customer is an event of theirs for journeys (a conversation's: the caller's,
  // which knows its customer).
  if (target === 'customer')
    await emitCustomerEvents(
      tx,
      ...changes.flatMap((c) =>
        refs(c.added).map((l) => ({
          businessId,
          customerId: c.ownerId,
          name: 'label.added' as const,
          properties: { label_id: l.id, label_name: l.name, on: 'customer' },
        })),
      ),
    );
  return changes.map((c) => ({ ownerId: c.ownerId, added: refs(c.added), removed: refs(c.removed) }));
}
