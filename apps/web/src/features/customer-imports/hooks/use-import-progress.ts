// An import's progress, kept live: each committed batch arrives over the realtime socket (topic
// `imports`, this import only); while the socket is down (or not yet subscribed) the import is
// polled with GET …/imports/{id}/ instead. Nothing more is asked once it has finished.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ZCustomerImport, type TCustomerImport } from '@titan/contracts';
import { useEffect, useState } from 'react';

import { realtimeClient } from '../../../lib/realtime';
import { importQueryKey, importQueryOptions } from '../api/get-import';

export const IMPORT_POLL_MS = 2000;

export const isFinished = (imp: Pick<TCustomerImport, 'status'> | undefined) =>
  imp?.status === 'done' || imp?.status === 'failed';

export function useImportProgress(id: string, businessCode: string | null, initial?: TCustomerImport) {
  const queryClient = useQueryClient();
  const [live, setLive] = useState(false);
  const query = useQuery({
    ...importQueryOptions(id),
    initialData: initial,
    refetchInterval: (q) => (live || isFinished(q.state.data) ? false : IMPORT_POLL_MS),
  });
  const finished = isFinished(query.data);

  useEffect(() => {
    if (!businessCode || finished) return;
    const queryKey = importQueryKey(id);
    const unsubscribe = realtimeClient().subscribe(
      { topic: 'imports', business_code: businessCode, import_id: id },
      {
        onChange: (change) => {
          if (change.table !== 'customer_imports') return;
          const parsed = ZCustomerImport.safeParse(change.new);
          if (!parsed.success || parsed.data.id !== id) return;
          queryClient.setQueryData<TCustomerImport>(queryKey, (old) =>
            // Progress only moves forward: a late event never takes the bar back.
            old && !isFinished(parsed.data) && old.processed_rows > parsed.data.processed_rows
              ? old
              : parsed.data,
          );
        },
        // Subscribed afresh or told to refetch: what was fetched before may be stale.
        onResync: () => void queryClient.invalidateQueries({ queryKey, exact: true }),
        onActive: setLive,
      },
    );
    return () => {
      unsubscribe();
      setLive(false);
    };
  }, [businessCode, finished, id, queryClient]);

  return { ...query, live: live && !finished };
}
