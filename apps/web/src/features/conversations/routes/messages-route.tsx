// /messages: the shared inbox (spec section 2). Two panes, list and conversation, 1 to 3; below 768 px
// one pane at a time: the list, or the open conversation with a way back. The open conversation is in
// the URL (?conversation=<id>), so Back and reloads keep it.
import { CodeIcon } from 'lucide-react';
import { useLayoutEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';

import { Button } from '../../../components/ui/button';
import { businessEmbedPath, conversationPath, MESSAGES_PATH } from '../../../config/paths';
import { useLivePresence } from '../../../lib/business/members';
import { usePermissions } from '../../../lib/business/roles';
import { useCurrentMembership } from '../../../lib/session/current-business';
import { readBusinessCode } from '../../../lib/session/tokens';
import { cn } from '../../../lib/utils';
import { ConversationPane, NoConversationSelected } from '../components/conversation-pane';
import { ConversationsList } from '../components/conversations-list';
import { SearchBox } from '../search/search-box';
import { NewConversationButton } from '../customer/new-conversation';
import { CONVERSATIONS_STRINGS } from '../strings';
import { NO_FILTERS, type TFilterChoices } from '../utils/filters';
import { IconTooltip } from '../../../components/ui/tooltip';
import { InboxShortcuts } from '../keyboard/inbox-shortcuts';

function selectedConversationId(value: string | null): number | null {
  if (!value || !/^\d+$/.test(value)) return null;
  const id = Number(value);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

/** The inbox fills the rest of the viewport, so each pane scrolls on its own. */
function useFillViewport() {
  const ref = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const fit = () => {
      const top = el.getBoundingClientRect().top + window.scrollY;
      el.style.height = `calc(100dvh - ${Math.max(0, Math.round(top))}px)`;
    };
    fit();
    window.addEventListener('resize', fit);
    return () => window.removeEventListener('resize', fit);
  }, []);
  return ref;
}

/** For roles that manage the chat widget (team.manage): the way to its embed settings. */
function EmbedSettingsLink({ businessCode }: { businessCode: string | null }) {
  const { can } = usePermissions();
  if (!businessCode || !can('team.manage')) return null;
  return (
    // An icon: the list pane can be as narrow as 16rem and the filter button must keep its place.
    <IconTooltip label={CONVERSATIONS_STRINGS.embedSettings}>
      <Button asChild variant="ghost" size="icon" className="size-8">
        <Link to={businessEmbedPath(businessCode)} aria-label={CONVERSATIONS_STRINGS.embedSettings}>
          <CodeIcon aria-hidden="true" />
        </Link>
      </Button>
    </IconTooltip>
  );
}

export function MessagesRoute() {
  const [searchParams] = useSearchParams();
  const selectedId = selectedConversationId(searchParams.get('conversation'));
  const [filters, setFilters] = useState<TFilterChoices>(NO_FILTERS);
  const membership = useCurrentMembership();
  const businessCode = membership?.unique_code ?? readBusinessCode();
  const ref = useFillViewport();
  // The members' presence dots (assign menus) follow the presence topic while the inbox is open.
  useLivePresence(businessCode);

  return (
    <div ref={ref} className="grid min-h-80 grid-cols-1 md:grid-cols-[minmax(16rem,1fr)_3fr]">
      <InboxShortcuts selectedId={selectedId} hrefFor={conversationPath} />
      <section
        aria-label={CONVERSATIONS_STRINGS.listRegion}
        className={cn('min-h-0 flex-col border-r', selectedId === null ? 'flex' : 'hidden md:flex')}
      >
        <div className="border-b px-4 py-2">
          <SearchBox />
        </div>
        <ConversationsList
          businessCode={businessCode}
          filters={filters}
          onFiltersChange={setFilters}
          selectedId={selectedId}
          hrefFor={conversationPath}
          actions={
            <>
              <NewConversationButton />
              <EmbedSettingsLink businessCode={businessCode} />
            </>
          }
        />
      </section>
      <section
        aria-label={CONVERSATIONS_STRINGS.paneRegion}
        className={cn('min-h-0 min-w-0 flex-col', selectedId === null ? 'hidden md:flex' : 'flex')}
      >
        {selectedId === null ? (
          <NoConversationSelected />
        ) : (
          <ConversationPane
            key={selectedId}
            conversationId={selectedId}
            businessCode={businessCode}
            backHref={MESSAGES_PATH}
          />
        )}
      </section>
    </div>
  );
}
