// The directory as CSV (GET /api/business/customer-directory/download/, engage.md §3): the whole
// directory, a search of it, a static list or a segment — streamed in keyset pages, one page in
// memory at a time; the route hands the lines to the response with backpressure (Readable.from
// pulls the next page only when the socket drained the last).
import { DIRECTORY_EXPORT_COLUMNS, type TDirectoryExportQuery, type TSegmentFilter } from '@titan/contracts';
import type { Db } from '../../db/client';
import { csvCell, csvLine } from '../../platform/csv';
import type { InboxScope } from '../../platform/inbox-scope';
import * as exportRepo from './directory.export.repository';

/** Customers read per statement. */
const PAGE = 2000;
/**
 * Rows per string handed to the response: ~40 KB, well below V8's large-object size, so each chunk
 * dies young (a 2,000-row string would go to the large-object space and wait for a full GC).
 */
const CHUNK = 250;

/** One customer's CSV line, in DIRECTORY_EXPORT_COLUMNS order. */
function line(r: exportRepo.ExportRow): string {
  return (
    `${r.id},${csvCell(r.name)},${csvCell(r.email)},${csvCell(r.phone)},${csvCell(r.external_id)},` +
    `${r.email_status},${r.sms_status},${r.whatsapp_status},${r.created_at},${r.last_seen_at ?? ''},` +
    `${r.fields === '{}' ? '' : csvCell(r.fields)}\r\n`
  );
}

function* chunks(rows: exportRepo.ExportRow[]): Generator<string> {
  for (let i = 0; i < rows.length; i += CHUNK) {
    let out = '';
    for (const r of rows.slice(i, i + CHUNK)) out += line(r);
    yield out;
  }
}

/** `visitors-2026-11-24.csv`, or with a list `visitors-spring-launch-2026-11-24.csv`. */
export function exportFileName(listName: string | null, now = new Date()): string {
  const slug = (listName ?? '')
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return `visitors${slug ? `-${slug}` : ''}-${now.toISOString().slice(0, 10)}.csv`;
}

export type DirectoryExport = { fileName: string; lines: AsyncGenerator<string> };

/** What a list selects (the customer-lists module answers it): a segment's filter, or a static list's members. */
export type ListSelection =
  | { kind: 'segment'; name: string; filter: TSegmentFilter }
  | { kind: 'static'; name: string; memberIdsAfter: (afterId: number, limit: number) => Promise<number[]> };

/**
 * Resolves what to export (a list the business does not have is 404, before anything is sent)
 * and answers the file's name and its lines: the header, then the customers CHUNK rows to a string.
 */
export async function prepareExport(
  db: Db,
  scope: InboxScope,
  query: TDirectoryExportQuery,
  listSelection: (db: Db, businessId: number, listId: number) => Promise<ListSelection>,
): Promise<DirectoryExport> {
  const search = query.search || undefined;
  const list = query.list_id === undefined ? null : await listSelection(db, scope.businessId, query.list_id);
  async function* generate(): AsyncGenerator<string> {
    yield csvLine(DIRECTORY_EXPORT_COLUMNS);
    if (list?.kind === 'static') {
      for (let after = 0; ;) {
        const ids = await list.memberIdsAfter(after, PAGE);
        if (ids.length === 0) return;
        const rows = await exportRepo.exportPage(db, scope, { search, ids }, 0, ids.length);
        yield* chunks(rows);
        after = ids[ids.length - 1]!;
      }
    }
    const segment = list?.kind === 'segment' ? list.filter : undefined;
    for (let after = 0; ;) {
      const rows = await exportRepo.exportPage(db, scope, { search, segment }, after, PAGE);
      yield* chunks(rows);
      if (rows.length < PAGE) return;
      after = Number(rows[rows.length - 1]!.id);
    }
  }
  return { fileName: exportFileName(list?.name ?? null), lines: generate() };
}
