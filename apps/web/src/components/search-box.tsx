// A search box for a list: typing updates the box at once and the search only after a pause.
import { SearchIcon, XIcon } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';

import { Button } from './ui/button';
import { Input } from './ui/input';
import { Label } from './ui/label';

const SEARCH_DEBOUNCE_MS = 300;

export function SearchBox({
  value,
  onSearch,
  label,
  placeholder,
  clearLabel,
}: {
  value: string;
  onSearch: (search: string) => void;
  label: string;
  placeholder: string;
  clearLabel: string;
}) {
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
        {label}
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
          placeholder={placeholder}
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
            aria-label={clearLabel}
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
