// Adds customers to a static list: search the directory, tick people, add them in one call.
import { useState } from 'react';
import { toast } from 'sonner';

import { SearchBox } from '../../../components/search-box';
import { Button } from '../../../components/ui/button';
import { reportApiError } from '../../../lib/api-errors';
import { useChangeMembers } from '../api/change-list-members';
import { useDirectorySearch } from '../api/search-directory';
import { LISTS_STRINGS } from '../strings';

const S = LISTS_STRINGS.add;

export function AddMembers({ listId, onDone }: { listId: number; onDone: () => void }) {
  const [search, setSearch] = useState('');
  const [picked, setPicked] = useState<Set<number>>(new Set());
  const found = useDirectorySearch(search);
  const add = useChangeMembers(listId, 'add');
  const toggle = (id: number) =>
    setPicked((now) => {
      const next = new Set(now);
      if (!next.delete(id)) next.add(id);
      return next;
    });

  return (
    <div className="grid gap-4">
      <SearchBox
        value={search}
        onSearch={setSearch}
        label={S.search}
        placeholder={S.placeholder}
        clearLabel="Clear search"
      />
      <ul aria-label={S.resultsLabel} className="grid max-h-72 gap-1 overflow-y-auto">
        {found.data?.results.length === 0 ? (
          <li className="text-sm text-muted-foreground">{S.nothing}</li>
        ) : null}
        {found.data?.results.map((v) => {
          const name = v.name?.trim() || LISTS_STRINGS.anonymous;
          return (
            <li key={v.id}>
              <label className="flex cursor-pointer items-center gap-3 rounded-md px-2 py-1.5 hover:bg-muted">
                <input
                  type="checkbox"
                  aria-label={S.select(name)}
                  checked={picked.has(v.id)}
                  onChange={() => toggle(v.id)}
                />
                <span className="font-medium">{name}</span>
                <span className="text-sm text-muted-foreground">{v.email ?? v.phone ?? ''}</span>
              </label>
            </li>
          );
        })}
      </ul>
      <div className="flex gap-2">
        <Button
          disabled={picked.size === 0 || add.isPending}
          onClick={() =>
            add.mutate([...picked], {
              onSuccess: ({ added }) => {
                toast.success(added === 0 ? S.alreadyIn : S.added(added));
                onDone();
              },
              onError: (error) => reportApiError(error, { toast: true }),
            })
          }
        >
          {S.submit(picked.size)}
        </Button>
        <Button variant="outline" onClick={onDone}>
          {LISTS_STRINGS.form.cancel}
        </Button>
      </div>
    </div>
  );
}
