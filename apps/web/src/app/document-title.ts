// document.title names each page ("Agents · Titan"): the route table gives each route a title in its
// handle; the deepest matched route that has one wins.
import { useEffect } from 'react';
import { useMatches, type Params } from 'react-router';

import { useUnreadNotifications } from '../stores/unread-notifications';
import { SHELL_STRINGS, PAGE_TITLES } from './strings';

export type TRouteHandle = { title: string | ((params: Params) => string) };

function hasTitle(handle: unknown): handle is TRouteHandle {
  return typeof handle === 'object' && handle !== null && 'title' in handle;
}

/** The page title for the matched routes: "{deepest title} · Titan", or "Titan". */
export function titleOf(matches: ReadonlyArray<{ handle: unknown; params: Params }>): string {
  const match = [...matches].reverse().find((m) => hasTitle(m.handle));
  if (!match || !hasTitle(match.handle)) return SHELL_STRINGS.productName;
  const { title } = match.handle;
  return `${typeof title === 'function' ? title(match.params) : title}${PAGE_TITLES.suffix}`;
}

export function useDocumentTitle(): void {
  const matches = useMatches();
  const unread = useUnreadNotifications((s) => s.count);
  const title = `${unread > 0 ? PAGE_TITLES.unreadPrefix(unread) : ''}${titleOf(matches)}`;
  useEffect(() => {
    document.title = title;
  }, [title]);
}
