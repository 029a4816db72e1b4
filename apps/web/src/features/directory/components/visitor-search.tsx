// The directory's search box: typing updates the box at once and the search only after a pause.
import { SearchIcon, XIcon } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';

import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { DIRECTORY_STRINGS as S } from '../strings';

const SEARCH_DEBOUNCE_MS = 300;

export function VisitorSearch({ value, onSearch }: { value: string; onSearch: (search: string) => void }) {
  const id = useId();
  const [text, setText] = useState(value);
  // The search can change from outside too (Back, a "Clear search" button): the box follows it.
  const [shownValue, setShownValue] = useState(value);
  if (value !== shownValue) {
    setShownValue(value);
    if (value !== text.trim()) setText(value);
  }
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const searchSoon = (next: string) => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => onSearch(next.trim()), SEARCH_DEBOUNCE_MS);
  };

  return (
    <div className="grid w-full max-w-sm gap-2">
      <Label htmlFor={id} className="sr-only">
        {S.search}
      </Label>
      <div className="relative">
        <SearchIcon
          aria-hidden="true"
          className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
        />
        <Input
          id={id}
          type="search"
          value={text}
          placeholder={S.searchPlaceholder}
          onChange={(event) => {
            setText(event.target.value);
            searchSoon(event.target.value);
          }}
          className="pr-9 pl-9 [&::-webkit-search-cancel-button]:appearance-none"
        />
        {text ? (
          <Button
            type="button"
            variant="ghost"
            size="icon"
            aria-label={S.clearSearch}
            className="absolute top-1/2 right-0 size-8 -translate-y-1/2"
            onClick={() => {
              clearTimeout(timer.current);
              setText('');
              onSearch('');
            }}
          >
            <XIcon aria-hidden="true" />
          </Button>
        ) : null}
      </div>
    </div>
  );
}
