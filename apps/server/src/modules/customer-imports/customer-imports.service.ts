// CSV imports into the directory (engage.md §3). The upload streams into storage under
// customer_lists/, checked on the way (a file that is empty, not CSV, or without an email or phone
// column is refused with the reason, and removed), and a job streams it: rows decoded, read and checked one by one, deduplicated
// within the file and against the directory, written in batches (1,000 rows, growing to 8,000),
// each in a transaction that also records the batch's refused rows and the progress — so a job
// stopped anywhere resumes after the last committed row, and one bad row never stops the rest. Each committed batch, and the start
// and end, are announced on the realtime topic `imports` (customer-imports.topics.ts) with the
// transaction that wrote them.
import { once } from 'node:events';
import { Transform, type Readable } from 'node:stream';
import { parse } from 'csv-parse';
import type { Logger } from 'pino';
import { IMPORT_ERRORS, type TCustomerImport, type TImportFields } from '@titan/contracts';
import type { Db, Tx } from '../../db/client';
import { csvLine } from '../../platform/csv';
import { AppError } from '../../platform/errors';
import type { Jobs } from '../../platform/jobs';
import { announceChange } from '../../platform/realtime/change-log.repository';
import { HeapCeiling } from '../../platform/heap';
import { makeKey, type Storage } from '../../platform/storage';
import { findBusiness } from '../business';
import { addKnownMembers, doubleOptInOf, isStaticList } from '../customer-lists';
import {
  adoptSuppressionsOf,
  askToConfirmJoin,
  type DoubleOptInDeps,
  recordImportedConsent,
} from '../consent';
import { importCustomers, type ImportedRow, matchImportRows } from '../directory';
import {
  decode,
  decodeStream,
  delimiterChar,
  FileInspector,
  HEAD_BYTES,
  ImportFileError,
  readEncoding,
  readHeader,
  readRow,
  settleDelimiter,
  streamDecodesCleanly,
  type ColumnTarget,
} from './csv-reading';
import { CustomerRows } from './customer-rows';
import * as repo from './customer-imports.repository';

export type ImportDeps = {
  db: Db;
  storage: Storage;
  jobs: Jobs;
  logger: Logger;
  /** Imports with double opt-in (or into a list with it) ask each person to confirm. */
  consent?: DoubleOptInDeps;
};

export const IMPORT_QUEUE = 'directory.import';
/**
 * Rows a batch: the first 1,000 (the progress bar moves soon), each next one twice its size up to
 * 8,000 — fewer statements and round trips a row (a batch's writes cost the same few whatever
 * its size), while two batches at most are held in memory (the one written, the one being read).
 */
const FIRST_BATCH_ROWS = 1000;
const MAX_BATCH_ROWS = 8000;
/** Rows read between two turns of the event loop (a few milliseconds of CPU). */
const YIELD_ROWS = 200;
/**
 * Heap growth allowed while a file is read before a full collection (platform/heap.ts): each batch
 * of 8,000 rows leaves ~10 MB of garbage in the old space (its rows lived across scavenges while
 * the batch before it was written), which V8 alone let pile up to 300+ MB on a million rows.
 */
const HEAP_HEADROOM_BYTES = 40 * 1024 * 1024;

/** The table the realtime `imports` topic carries. */
export const IMPORTS_TABLE = 'customer_imports';

/** Tells the import's subscribers it changed (when the surrounding transaction commits). */
const announce = (db: Db | Tx, imp: { id: string; businessId: number }, op: 'INSERT' | 'UPDATE' = 'UPDATE') =>
  announceChange(db, { businessId: imp.businessId, table: IMPORTS_TABLE, op, rowId: imp.id });

export const errorsPath = (id: string) => `/api/business/customer-directory/imports/${id}/errors/`;

function toImport(row: repo.ImportRow): TCustomerImport {
  return {
    id: row.id,
    file_name: row.fileName,
    status: row.status,
    mode: row.mode,
    encoding: row.encoding,
    delimiter: row.delimiter,
    consent: row.consent,
    consent_proof: row.consentProof,
    consent_channels: row.consentChannels,
    double_opt_in: row.doubleOptIn,
    list_id: row.listId,
    columns: row.columns,
    total_rows: row.totalRows,
    processed_rows: row.processedRows,
    inserted: row.inserted,
    updated: row.updated,
    skipped: row.skipped,
    failed: row.failed,
    errors_url: row.failed + row.skipped > 0 ? errorsPath(row.id) : null,
    error: row.error,
    created_at: row.createdAt.toISOString(),
    finished_at: row.finishedAt?.toISOString() ?? null,
  };
}

/** An uploaded file, stored as it arrived, with what its checks need to know of it. */
export type StoredUpload = { key: string; fileName: string; file: FileInspector };

/**
 * Streams an upload into storage under customer_lists/, gathering on the way what the checks
 * need (`createImport`), so the file is never held whole. `encoding`: as chosen, when the field
 * came before the file. A stream that fails leaves nothing stored.
 */
export async function storeUpload(
  deps: ImportDeps,
  input: { businessId: number; fileName: string; stream: Readable; encoding: string | undefined },
): Promise<StoredUpload> {
  const fileName = input.fileName || 'customers.csv';
  const key = makeKey(`customer_lists/${input.businessId}`, fileName);
  const file = new FileInspector(input.encoding);
  const tap = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      file.push(chunk);
      done(null, chunk);
    },
  });
  input.stream.on('error', (err) => tap.destroy(err));
  await deps.storage.putStream(key, input.stream.pipe(tap), 'text/csv');
  file.end();
  return { key, fileName, file };
}

/**
 * Checks a stored upload and starts its import (202). A refused file is the caller's to remove
 * from storage (it removes it whatever refused the upload).
 */
export async function createImport(
  deps: ImportDeps,
  input: {
    businessId: number;
    createdBy: number | null;
    upload: StoredUpload;
    fields: TImportFields;
  },
): Promise<TCustomerImport> {
  const { fields, upload } = input;
  const { file, key } = upload;
  if (fields.list_id !== undefined && !(await isStaticList(deps.db, input.businessId, fields.list_id)))
    throw AppError.fields({ list_id: ['No such static list: imports add customers to static lists.'] });
  const { encoding, refused } = await readEncoding(file, fields.encoding, async (wanted) => {
    const stream = await deps.storage.openStream(key);
    if (!stream) throw new Error('the uploaded file vanished from storage');
    return streamDecodesCleanly(stream, wanted);
  });
  const head = decode(file.head(), encoding);
  const delimiter = settleDelimiter(head, file.size <= HEAD_BYTES, fields.delimiter);
  let columns: { name: string; target: ColumnTarget }[];
  try {
    ({ columns } = readHeader(head, fields.column_map, delimiter));
    // A file that is not CSV at all is told so first; one that is, but in no encoding it can be
    // read in without guessing, is refused whole: nothing of it is imported.
    if (refused) throw refused;
  } catch (err) {
    if (!(err instanceof ImportFileError)) throw err;
    throw AppError.fields({ [err.field]: [err.message] });
  }
  const row = await deps.db.transaction(async (tx) => {
    const inserted = await repo.insertImport(tx, {
      businessId: input.businessId,
      fileKey: key,
      fileName: upload.fileName,
      mode: fields.mode,
      encoding,
      delimiter,
      consent: fields.consent,
      consentProof: fields.consent === 'subscribed' ? (fields.consent_proof ?? null) : null,
      consentChannels: fields.consent === 'subscribed' ? fields.consent_channels : [],
      doubleOptIn: fields.double_opt_in,
      listId: fields.list_id ?? null,
      columns,
      status: 'queued',
      createdBy: input.createdBy,
    });
    await announce(tx, inserted, 'INSERT');
    return inserted;
  });
  await deps.jobs.send(IMPORT_QUEUE, { import_id: row.id }, { singletonKey: row.id });
  return toImport(row);
}

/** An import by id alone, with its business (the realtime topic checks the business itself). */
export async function loadImport(
  db: Db,
  id: string,
): Promise<(TCustomerImport & { business_id: number }) | null> {
  const row = await repo.findImportById(db, id);
  return row && { ...toImport(row), business_id: row.businessId };
}

export async function findImport(db: Db, businessId: number, id: string): Promise<TCustomerImport> {
  const row = await repo.findImport(db, businessId, id);
  if (!row) throw AppError.notFound(IMPORT_ERRORS.notFound);
  return toImport(row);
}

/** Lines in the file (a quick pass over its bytes): the progress bar's estimate of its rows. */
async function countLines(stream: Readable): Promise<number> {
  let lines = 0;
  let last = 10;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
    if (chunk.length) last = chunk[chunk.length - 1]!;
  }
  return last === 10 ? lines : lines + 1;
}

/** Ends an import (done or failed) and tells its subscribers, in one transaction. */
const finish = (db: Db, imp: { id: string; businessId: number }, values: Parameters<typeof repo.finish>[2]) =>
  db.transaction(async (tx) => {
    await repo.finish(tx, imp.id, values);
    await announce(tx, imp);
  });

type Refused = { rowNumber: number; reason: string; values: string[] };

/** A batch read and checked, ready to write: its rows, and those refused or repeated in it. */
type Prepared = {
  size: number;
  rows: ImportedRow[];
  failed: Refused[];
  skipped: Refused[];
  valuesOf: Map<number, string[]>;
};

/**
 * The import job: streams the stored file from where the last committed batch ended. While one
 * batch is being written, the next is read and checked row by row (the CPU work overlaps the
 * database's: the reading lets the event loop go every YIELD_ROWS rows, so the batch being written
 * never waits long to send its next statement); batches still commit one at a time and in order,
 * so a stop anywhere resumes cleanly.
 */
export async function runImport(deps: ImportDeps, id: string): Promise<void> {
  const found = await repo.findImportById(deps.db, id);
  if (!found || found.status === 'done' || found.status === 'failed') return;
  const counted = await deps.storage.openStream(found.fileKey);
  if (!counted) {
    await finish(deps.db, found, { status: 'failed', error: 'The uploaded file is no longer stored.' });
    return;
  }
  const estimate = Math.max(0, (await countLines(counted)) - 1);
  const row = await deps.db.transaction(async (tx) => {
    const started = await repo.startRunning(tx, id, {
      encoding: found.encoding,
      totalRows: found.totalRows ?? estimate,
    });
    if (started) await announce(tx, started);
    return started;
  });
  if (!row) return;
  const business = await findBusiness(deps.db, row.businessId);
  const columns = row.columns as { name: string; target: ColumnTarget }[];
  const source = await deps.storage.openStream(row.fileKey);
  if (!source) throw new Error('the stored file vanished');
  const parser = source.pipe(decodeStream(row.encoding)).pipe(
    parse({
      delimiter: delimiterChar(row.delimiter),
      relax_column_count: true,
      relax_quotes: true,
      skip_records_with_error: true,
      skip_empty_lines: true,
    }),
  );
  let batch = new BatchReader(columns, business.dial_code);
  let index = 0;
  parser.on('skip', (err: { lines?: number; message: string }) => {
    // Lines of the part an earlier run committed were recorded then.
    if (index < row.processedRows) return;
    batch.malformed(`Line ${err.lines ?? '?'} of the file is not valid CSV: ${err.message}`);
  });
  const ours = new CustomerRows();
  let earlier: ImportedRow[] = [];
  let writing: Promise<unknown> = Promise.resolve(null);
  const heap = new HeapCeiling(HEAP_HEADROOM_BYTES);
  /** Writes after the batch before it committed; a failure surfaces at the next await. */
  const write = async (prepared: Prepared) => {
    const failure = await writing;
    if (failure) throw failure;
    // The batch just committed is garbage now.
    heap.check();
    writing = commitBatch(deps, row, prepared, ours).then(
      () => null,
      (err: unknown) => err ?? new Error('the batch failed'),
    );
  };
  let header = true;
  let batchRows = FIRST_BATCH_ROWS;
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      if (header) {
        header = false;
        continue;
      }
      // Rows committed by an earlier run of this import are passed over: only the customers
      // they had are looked up again, so later repeats of them are still caught.
      if (index++ < row.processedRows) {
        const read = readRow(record, index + 1, columns, business.dial_code);
        if ('row' in read) earlier.push(read.row);
        if (earlier.length >= MAX_BATCH_ROWS) {
          await rememberEarlier(deps.db, row.businessId, earlier, ours);
          earlier = [];
        }
        continue;
      }
      if (earlier.length) {
        await rememberEarlier(deps.db, row.businessId, earlier, ours);
        earlier = [];
      }
      // Rows as a spreadsheet numbers them: the header is row 1, a multi-line cell is one row.
      batch.add(record, index + 1);
      // Each row is checked as it is read, and the event loop is let go now and then: the batch
      // being written gets each answer of the database at once and sends its next statement.
      if (index % YIELD_ROWS === 0) await new Promise(setImmediate);
      if (batch.prepared.size >= batchRows) {
        const full = batch.prepared;
        batch = new BatchReader(columns, business.dial_code);
        batchRows = Math.min(batchRows * 2, MAX_BATCH_ROWS);
        await write(full);
      }
    }
    if (earlier.length) await rememberEarlier(deps.db, row.businessId, earlier, ours);
    if (batch.prepared.size || batch.prepared.failed.length) await write(batch.prepared);
    const failure = await writing;
    if (failure) throw failure;
  } catch (err) {
    // The batch being written ends (committed or not) before the import is marked stopped.
    await writing;
    deps.logger.error({ err, import: id }, 'customer import stopped');
    const latest = await repo.findImportById(deps.db, id);
    await finish(deps.db, row, {
      status: 'failed',
      error: `The import stopped after ${latest?.processedRows ?? 0} rows: ${(err as Error).message}. The rows before it were imported.`,
    });
    return;
  }
  const done = await repo.findImportById(deps.db, id);
  await finish(deps.db, row, { status: 'done', totalRows: done?.processedRows ?? 0 });
  if (!parser.readableEnded) await once(parser, 'end').catch(() => undefined);
}

/** The customers rows of an earlier run had (a resumed import), as if this run had written them. */
async function rememberEarlier(db: Db, businessId: number, rows: ImportedRow[], ours: CustomerRows) {
  const matches = await matchImportRows(db, businessId, rows);
  matches.forEach((match, i) => match && ours.add(match.id, rows[i]!.rowNumber));
}

type Seen = { email: Map<string, number>; phone: Map<string, number>; external: Map<string, number> };

/** The row of this batch this one repeats (by external id, email or phone), if any. */
function duplicateOf(seen: Seen, r: ImportedRow): string | null {
  const earlier = (label: string, row: number | undefined) =>
    row === undefined ? null : duplicateReason(label, row);
  return (
    (r.externalId ? earlier('external id', seen.external.get(r.externalId)) : null) ??
    (r.email ? earlier('email address', seen.email.get(r.email)) : null) ??
    (r.phone ? earlier('phone number', seen.phone.get(r.phone)) : null)
  );
}

const duplicateReason = (label: string, row: number) => `Same ${label} as row ${row}; skipped.`;

/** A batch being read: each row checked as it comes, repeats within the batch set aside (CPU only). */
class BatchReader {
  private seen: Seen = { email: new Map(), phone: new Map(), external: new Map() };
  readonly prepared: Prepared = { size: 0, rows: [], failed: [], skipped: [], valuesOf: new Map() };

  constructor(
    private columns: { name: string; target: ColumnTarget }[],
    private dialCode: string | null,
  ) {}

  /** A line the CSV reader could not read (it has no row of its own). */
  malformed(reason: string): void {
    this.prepared.failed.push({ rowNumber: 0, reason, values: [] });
  }

  add(values: string[], line: number): void {
    const { prepared, seen } = this;
    prepared.size++;
    const read = readRow(values, line, this.columns, this.dialCode);
    if ('error' in read) {
      prepared.failed.push({ rowNumber: line, reason: read.error, values });
      return;
    }
    const r = read.row;
    const duplicate = duplicateOf(seen, r);
    if (duplicate) {
      prepared.skipped.push({ rowNumber: line, reason: duplicate, values });
      return;
    }
    if (r.externalId && !seen.external.has(r.externalId)) seen.external.set(r.externalId, line);
    if (r.email && !seen.email.has(r.email)) seen.email.set(r.email, line);
    if (r.phone && !seen.phone.has(r.phone)) seen.phone.set(r.phone, line);
    prepared.valuesOf.set(line, values);
    prepared.rows.push(r);
  }
}

/**
 * Writes a batch in one transaction: its customers, their list membership, its refused rows and
 * the import's progress, announced to its subscribers at commit. A row whose customer an earlier
 * batch already had is a repeat of that row (`ours`), skipped like a repeat within the batch.
 */
async function commitBatch(
  deps: ImportDeps,
  imp: repo.ImportRow,
  batch: Prepared,
  ours: CustomerRows,
): Promise<void> {
  const { failed } = batch;
  const skipped = [...batch.skipped];
  // Double opt-in (the import's, or its list's): the people confirm, after the batch commits.
  const list = imp.listId !== null ? await doubleOptInOf(deps.db, imp.businessId, imp.listId) : null;
  const joining =
    deps.consent && (imp.doubleOptIn || list?.doubleOptIn)
      ? { deps: deps.consent, listName: list?.name ?? imp.fileName }
      : null;
  const outcome = await deps.db.transaction(async (tx) => {
    const outcome = await importCustomers(tx, imp.businessId, batch.rows, imp.mode, (id) => ours.get(id));
    for (const line of outcome.lost)
      skipped.push({
        rowNumber: line,
        reason: 'Another writer added this external id meanwhile; skipped.',
        values: batch.valuesOf.get(line) ?? [],
      });
    for (const d of outcome.duplicates)
      skipped.push({
        rowNumber: d.rowNumber,
        reason: duplicateReason(d.key, d.of),
        values: batch.valuesOf.get(d.rowNumber) ?? [],
      });
    // New and re-addressed customers show what the suppression list already says of them.
    const written = new Set([...outcome.inserted, ...outcome.updated].map((r) => r.rowNumber));
    await adoptSuppressionsOf(
      tx,
      imp.businessId,
      batch.rows.filter((r) => written.has(r.rowNumber)),
    );
    // After the suppression list had its say: an import's word never lifts an opt-out or a bounce.
    if (imp.consent === 'subscribed' && imp.consentProof && !joining)
      await recordImportedConsent(tx, {
        businessId: imp.businessId,
        customerIds: [...outcome.inserted, ...outcome.updated].map((r) => r.id),
        channels: imp.consentChannels,
        proof: imp.consentProof,
        importId: imp.id,
      });
    if (imp.listId !== null)
      await addKnownMembers(
        tx,
        imp.businessId,
        imp.listId,
        [...outcome.inserted, ...outcome.updated, ...outcome.unchanged].map((r) => r.id),
      );
    await repo.insertErrors(
      tx,
      imp.id,
      [...failed, ...skipped].sort((a, b) => a.rowNumber - b.rowNumber),
    );
    await repo.advance(tx, imp.id, {
      processed: batch.size,
      inserted: outcome.inserted.length,
      updated: outcome.updated.length,
      skipped: outcome.unchanged.length + skipped.length,
      failed: failed.length,
    });
    await announce(tx, imp);
    return outcome;
  });
  for (const r of [...outcome.inserted, ...outcome.updated, ...outcome.unchanged])
    ours.add(r.id, r.rowNumber);
  if (joining)
    await askToConfirmJoin(joining.deps, {
      businessId: imp.businessId,
      customerIds: [...outcome.inserted, ...outcome.updated, ...outcome.unchanged].map((r) => r.id),
      listId: imp.listId,
      listName: joining.listName,
      source: 'import',
    });
}

/** The refused and skipped rows as CSV: row, reason, then the file's own columns. Streamed. */
export async function* exportErrors(db: Db, businessId: number, id: string): AsyncGenerator<string> {
  const imp = await repo.findImport(db, businessId, id);
  if (!imp) throw AppError.notFound(IMPORT_ERRORS.notFound);
  yield csvLine(['row', 'reason', ...imp.columns.map((c) => c.name)]);
  let after = 0;
  for (;;) {
    const page = await repo.errorsAfter(db, id, after, 1000);
    if (page.length === 0) return;
    yield page.map((e) => csvLine([e.rowNumber, e.reason, ...e.values])).join('');
    after = page[page.length - 1]!.id;
  }
}

export async function defineImportQueue(deps: ImportDeps): Promise<void> {
  await deps.jobs.define<{ import_id: string }>({
    name: IMPORT_QUEUE,
    handler: ({ import_id }) => runImport(deps, import_id),
    // A process stopped mid-file: the job expires and runs again, resuming after the last batch.
    retryLimit: 3,
    expireInSeconds: 60 * 60,
  });
}
