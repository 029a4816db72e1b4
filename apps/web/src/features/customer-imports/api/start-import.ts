// POST /api/business/customer-directory/import/ (multipart: file, mode, list_id, column_map,
// delimiter, consent, consent_proof, consent_channels) → 202 with the import, whose progress
// get-import.ts follows.
import { useMutation } from '@tanstack/react-query';
import {
  ZCustomerImport,
  ZEnvelope,
  type TCustomerImport,
  type TImportConsentChannel,
  type TImportDelimiter,
  type TImportMode,
} from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';

export const IMPORT_API_PATH = '/api/business/customer-directory/import/';

/** A file of up to 100 MB goes up in one request: far longer than the usual five seconds. */
const UPLOAD_TIMEOUT_MS = 10 * 60_000;

export type TStartImport = {
  file: File;
  mode: TImportMode;
  listId: number | null;
  /** Column name (as the header reader read it) → name, email, phone, …, ignore or a field name. */
  columnMap: Record<string, string>;
  /** As the preview read the file, so the columns mapped are the ones the server reads. */
  delimiter: TImportDelimiter;
  consent: TImportConsentChoice;
  /** Ask each person whose consent is unknown to confirm by email (double opt-in). */
  doubleOptIn?: boolean;
};

/** What consent the rows carry: unknown, or subscribed with its proof on some channels. */
export type TImportConsentChoice =
  { kind: 'unknown' } | { kind: 'subscribed'; proof: string; channels: TImportConsentChannel[] };

export async function startImport({
  file,
  mode,
  listId,
  columnMap,
  delimiter,
  consent,
  doubleOptIn = false,
}: TStartImport): Promise<TCustomerImport> {
  const form = new FormData();
  form.append('mode', mode);
  if (listId !== null) form.append('list_id', String(listId));
  form.append('column_map', JSON.stringify(columnMap));
  form.append('delimiter', delimiter);
  form.append('consent', consent.kind);
  if (consent.kind === 'unknown' && doubleOptIn) form.append('double_opt_in', 'true');
  if (consent.kind === 'subscribed') {
    form.append('consent_proof', consent.proof.trim());
    form.append('consent_channels', consent.channels.join(','));
  }
  form.append('file', file, file.name);
  const { data } = await protectedClient.post(IMPORT_API_PATH, form, {
    timeout: UPLOAD_TIMEOUT_MS,
    // Not JSON: the browser sets multipart/form-data with its boundary.
    headers: { 'Content-Type': 'multipart/form-data' },
  });
  return ZEnvelope(ZCustomerImport).parse(data).result;
}

export function useStartImport() {
  return useMutation({ mutationFn: startImport });
}
