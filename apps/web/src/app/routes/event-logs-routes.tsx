// Event logs: a tab per channel, each send's page, an agent's runs and each run's page.
import type { TEventLogChannel } from '@titan/contracts';
import { redirect, type RouteObject } from 'react-router';

import { EVENT_LOG_SEGMENTS, EVENT_LOGS_PATH, eventLogsPath } from '../../config/paths';
import { type TRouteHandle } from '../document-title';
import { areaTabs } from './area-tabs';
import { PAGE_TITLES as T, SHELL_STRINGS } from '../strings';

/** The event logs, a tab per channel in the order the tabs show. */
const EVENT_LOG_TABS: TEventLogChannel[] = ['email', 'whatsapp', 'sms'];

/** A channel's list of sends. WhatsApp's tab also shows this month's spend, a WhatsApp feature piece. */
function eventLogsLazy(channel: TEventLogChannel) {
  return async () => {
    const { EventLogsRoute } = await import('../../features/event-logs/routes/event-logs-route');
    if (channel !== 'whatsapp') return { element: <EventLogsRoute key={channel} channel={channel} /> };
    const { BalanceSummary } = await import('../../features/whatsapp/components/balance-summary');
    return { element: <EventLogsRoute key={channel} channel={channel} summary={<BalanceSummary />} /> };
  };
}

/** One send's page, with its timeline; the same page for every channel. */
function eventLogLazy(channel: TEventLogChannel) {
  return async () => {
    const { EventLogRoute } = await import('../../features/event-logs/routes/event-log-route');
    return { element: <EventLogRoute channel={channel} /> };
  };
}

/**
 * /engage/event-logs was the WhatsApp log before the other channels had tabs: it opens the WhatsApp
 * tab, filters and page kept, so old links and bookmarks still land on the same rows.
 */
function eventLogsIndexLoader({ request }: { request: Request }) {
  return redirect(`${eventLogsPath('whatsapp')}${new URL(request.url).search}`);
}

export const EVENT_LOGS_ROUTES: RouteObject[] = [
  {
    // A tab per channel and each send's page; an agent's runs and each run's page.
    path: EVENT_LOGS_PATH,
    handle: { title: SHELL_STRINGS.areas.eventLogs } satisfies TRouteHandle,
    children: [
      // Never rendered: the loader always redirects.
      { index: true, loader: eventLogsIndexLoader, element: null },
      {
        lazy: areaTabs(
          'eventLogs',
          EVENT_LOG_TABS.map((channel) => ({ channel, to: eventLogsPath(channel) })),
        ),
        children: EVENT_LOG_TABS.map((channel) => ({
          path: EVENT_LOG_SEGMENTS[channel],
          handle: { title: T.channelLog(channel) } satisfies TRouteHandle,
          lazy: eventLogsLazy(channel),
        })),
      },
      ...EVENT_LOG_TABS.map((channel) => ({
        path: `${EVENT_LOG_SEGMENTS[channel]}/:trackingId`,
        handle: { title: T.send } satisfies TRouteHandle,
        lazy: eventLogLazy(channel),
      })),
      {
        path: 'agents/:agentId',
        handle: { title: T.runLog } satisfies TRouteHandle,
        lazy: async () => ({
          Component: (await import('../../features/agents/routes/agent-runs-route')).AgentRunsRoute,
        }),
      },
      {
        path: 'agents/:agentId/:channel/:runId',
        handle: { title: T.run } satisfies TRouteHandle,
        lazy: async () => ({
          Component: (await import('../../features/agents/routes/agent-run-route')).AgentRunRoute,
        }),
      },
      {
        // The spec's /engage/event-logs/{id}: finds the send's channel and opens its page.
        path: ':trackingId',
        handle: { title: T.send } satisfies TRouteHandle,
        lazy: async () => ({
          Component: (await import('../../features/event-logs/routes/event-log-lookup-route'))
            .EventLogLookupRoute,
        }),
      },
    ],
  },
];
