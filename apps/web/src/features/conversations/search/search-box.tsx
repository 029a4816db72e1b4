// The inbox's search box (issue 29): searches names, emails, phones, messages and notes as you
// type; each result shows the conversation and the match highlighted, and opens the conversation
// scrolled to the message (?message=<id>).
import type { TSearchResult } from '@titan/contracts';
import { SearchIcon } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { useNavigate } from 'react-router';

import { Input } from '../../../components/ui/input';
import { conversationPath } from '../../../config/paths';
import { cn } from '../../../lib/utils';
import { initiatorName } from '../utils/display';
import { searchable, useInboxSearch } from './api';

export const SEARCH_STRINGS = {
  label: 'Search conversations',
  placeholder: 'Search names, emails, phones, messages…',
  noResults: 'Nothing matches',
  results: (n: number) => `${n} ${n === 1 ? 'match' : 'matches'}`,
  note: 'Note',
  customer: 'Customer',
};
const S = SEARCH_STRINGS;

/** Where a result opens: the conversation, scrolled to its message when a message matched. */
export function resultHref(result: TSearchResult): string {
  const base = conversationPath(result.conversation.id);
  return result.message ? `${base}&message=${encodeURIComponent(String(result.message.id))}` : base;
}

function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

export function SearchBox({ className }: { className?: string }) {
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const q = useDebounced(text, 200);
  const search = useInboxSearch(q);
  const navigate = useNavigate();
  const listId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const results = searchable(q) ? (search.data?.results ?? []) : [];
  const show = open && searchable(q) && !search.isPending;

  const choose = (result: TSearchResult) => {
    setOpen(false);
    void navigate(resultHref(result));
  };
  const onKeyDown = (event: React.KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      setActive((i) => Math.min(i + 1, results.length - 1));
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      setActive((i) => Math.max(i - 1, 0));
    } else if (event.key === 'Enter' && results[active]) {
      event.preventDefault();
      choose(results[active]);
    } else if (event.key === 'Escape') {
      setOpen(false);
      inputRef.current?.blur();
    }
  };

  return (
    <div className={cn('relative', className)}>
      <SearchIcon
        aria-hidden="true"
        className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-muted-foreground"
      />
      <Input
        ref={inputRef}
        type="search"
        role="combobox"
        aria-label={S.label}
        aria-expanded={show}
        aria-controls={listId}
        aria-activedescendant={show && results[active] ? `${listId}-${active}` : undefined}
        placeholder={S.placeholder}
        className="pl-8"
        value={text}
        data-inbox-search=""
        onChange={(e) => {
          setText(e.target.value);
          setActive(0);
          setOpen(true);
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => setTimeout(() => setOpen(false), 150)}
        onKeyDown={onKeyDown}
      />
      {show ? (
        <div className="absolute z-30 mt-1 w-full min-w-72 rounded-md border bg-popover text-popover-foreground shadow-md">
          <p className="border-b px-3 py-1.5 text-xs text-muted-foreground" aria-live="polite">
            {search.data?.count ? S.results(search.data.count) : S.noResults}
          </p>
          <ul id={listId} role="listbox" aria-label={S.label} className="max-h-96 overflow-y-auto py-1">
            {results.map((result, i) => (
              <li
                key={`${result.conversation.id}-${result.message?.id ?? 'customer'}`}
                id={`${listId}-${i}`}
                role="option"
                aria-selected={i === active}
                className={cn(
                  'cursor-pointer px-3 py-2 text-sm',
                  i === active && 'bg-accent text-accent-foreground',
                )}
                onMouseEnter={() => setActive(i)}
                onMouseDown={(e) => {
                  e.preventDefault();
                  choose(result);
                }}
              >
                <div className="flex items-center gap-2">
                  <span className="truncate font-medium">{initiatorName(result.conversation)}</span>
                  <span className="ml-auto shrink-0 text-xs text-muted-foreground">
                    {result.message ? (result.message.message_type === 'note' ? S.note : null) : S.customer}
                  </span>
                </div>
                {/* The server escapes the text and adds only <mark> (search.service headlineHtml). */}
                <p
                  className="line-clamp-2 text-muted-foreground [&_mark]:rounded-sm [&_mark]:bg-yellow-200 [&_mark]:text-foreground dark:[&_mark]:bg-yellow-700"
                  dangerouslySetInnerHTML={{ __html: result.highlight }}
                />
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}
