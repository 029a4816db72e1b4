// GET /api/business/customer-directory/{id}/export/ (engage.write): everything held on one
// customer (GDPR art. 15), saved as a JSON file.
import { useMutation } from '@tanstack/react-query';

import { protectedClient } from '../../../lib/protected-client';
import { saveBlob } from '../../../lib/download';
import { visitorApiPath } from '../../../lib/customers/get-customer';

export async function exportVisitor(id: number): Promise<void> {
  const { data } = await protectedClient.get<{ result: unknown }>(`${visitorApiPath(id)}export/`);
  const json = JSON.stringify(data.result, null, 2);
  saveBlob(new Blob([json], { type: 'application/json' }), `customer-${id}.json`);
}

export function useExportVisitor() {
  return useMutation({ mutationFn: exportVisitor });
}
