// The command palette (issue 29): Ctrl/Cmd-K anywhere in the workspace opens one box that finds
// conversations (the inbox search), customers (the directory) and screens, built on cmdk (a
// combobox with a listbox: arrows move, Enter opens, Escape closes).
import { useQuery } from '@tanstack/react-query';
import { ZDirectoryVisitor, ZEnvelope, ZPage } from '@titan/contracts';
import { Command } from 'cmdk';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';

import { Dialog, DialogContent, DialogDescription, DialogTitle } from '../../../components/ui/dialog';
import {
  AGENTS_PATH,
  CAMPAIGNS_PATH,
  conversationPath,
  DASHBOARD_PATH,
  DIRECTORY_PATH,
  EVENT_LOGS_PATH,
  LISTS_PATH,
  MESSAGES_PATH,
  SETTINGS_PATH,
  TEMPLATES_PATH,
  visitorPath,
} from '../../../config/paths';
import { protectedClient } from '../../../lib/protected-client';
import { searchable, useInboxSearch } from '../search/api';
import { CONVERSATIONS_STRINGS } from '../strings';

const S = CONVERSATIONS_STRINGS.palette;

const SCREENS = [
  { label: S.screens.dashboard, path: DASHBOARD_PATH },
  { label: S.screens.inbox, path: MESSAGES_PATH },
  { label: S.screens.directory, path: DIRECTORY_PATH },
  { label: S.screens.lists, path: LISTS_PATH },
  { label: S.screens.campaigns, path: CAMPAIGNS_PATH },
  { label: S.screens.templates, path: TEMPLATES_PATH },
  { label: S.screens.agents, path: AGENTS_PATH },
  { label: S.screens.eventLogs, path: EVENT_LOGS_PATH },
  { label: S.screens.settings, path: SETTINGS_PATH },
] as const;

const ZCustomers = ZEnvelope(ZPage(ZDirectoryVisitor));

function useCustomerSearch(q: string) {
  const text = q.trim();
  return useQuery({
    queryKey: ['palette-customers', text],
    queryFn: async ({ signal }) => {
      const { data } = await protectedClient.get('/api/business/customer-directory/', {
        params: { search: text, page: 1, page_size: 5 },
        signal,
      });
      return ZCustomers.parse(data).result.results;
    },
    enabled: searchable(text),
    staleTime: 10_000,
  });
}

const groupHeading =
  '[&_[cmdk-group-heading]]:px-2 [&_[cmdk-group-heading]]:py-1.5 [&_[cmdk-group-heading]]:text-xs [&_[cmdk-group-heading]]:text-muted-foreground';
const itemClass =
  'flex cursor-pointer flex-col rounded-md px-2 py-1.5 text-sm data-[selected=true]:bg-accent data-[selected=true]:text-accent-foreground';

export function CommandPalette() {
  const [open, setOpen] = useState(false);
  const [q, setQ] = useState('');
  const navigate = useNavigate();
  const conversations = useInboxSearch(open ? q : '');
  const customers = useCustomerSearch(open ? q : '');

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'k') {
        event.preventDefault();
        setOpen((v) => !v);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const go = (path: string) => {
    setOpen(false);
    setQ('');
    navigate(path);
  };
  const needle = q.trim().toLowerCase();
  const screens = SCREENS.filter((s) => !needle || s.label.toLowerCase().includes(needle));
  const found = searchable(q) ? (conversations.data?.results ?? []).slice(0, 6) : [];
  const people = searchable(q) ? (customers.data ?? []) : [];

  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogContent className="overflow-hidden p-0 sm:max-w-lg">
        <DialogTitle className="sr-only">{S.title}</DialogTitle>
        <DialogDescription className="sr-only">{S.description}</DialogDescription>
        <Command shouldFilter={false} label={S.title} className="flex flex-col">
          <Command.Input
            value={q}
            onValueChange={setQ}
            placeholder={S.placeholder}
            aria-label={S.placeholder}
            className="h-11 border-b bg-transparent px-3 text-sm outline-none placeholder:text-muted-foreground"
          />
          <Command.List className="max-h-80 overflow-y-auto p-1">
            <Command.Empty className="px-3 py-6 text-center text-sm text-muted-foreground">
              {S.empty}
            </Command.Empty>
            {found.length > 0 ? (
              <Command.Group heading={S.conversations} className={groupHeading}>
                {found.map((hit) => (
                  <Command.Item
                    key={`c${hit.conversation.id}-${hit.message?.id ?? ''}`}
                    value={`conversation-${hit.conversation.id}-${hit.message?.id ?? ''}`}
                    onSelect={() => go(conversationPath(hit.conversation.id))}
                    className={itemClass}
                  >
                    <span className="font-medium">
                      {hit.conversation.initiator?.name || hit.conversation.title || S.untitled}
                    </span>
                    <span className="truncate text-xs text-muted-foreground">
                      {hit.message?.content ?? hit.conversation.title}
                    </span>
                  </Command.Item>
                ))}
              </Command.Group>
            ) : null}
            {people.length > 0 ? (
              <Command.Group heading={S.customers} className={groupHeading}>
                {people.map((c) => (
                  <Command.Item
                    key={`p${c.id}`}
                    value={`customer-${c.id}`}
                    onSelect={() => go(visitorPath(c.id))}
                    className={itemClass}
                  >
                    <span className="font-medium">{c.name || c.email || c.phone || S.untitled}</span>
                    {c.email || c.phone ? (
                      <span className="text-xs text-muted-foreground">{c.email ?? c.phone}</span>
                    ) : null}
                  </Command.Item>
                ))}
              </Command.Group>
            ) : null}
            {screens.length > 0 ? (
              <Command.Group heading={S.screensHeading} className={groupHeading}>
                {screens.map((s) => (
                  <Command.Item
                    key={s.path}
                    value={`screen-${s.path}`}
                    onSelect={() => go(s.path)}
                    className={itemClass}
                  >
                    {s.label}
                  </Command.Item>
                ))}
              </Command.Group>
            ) : null}
          </Command.List>
        </Command>
      </DialogContent>
    </Dialog>
  );
}
