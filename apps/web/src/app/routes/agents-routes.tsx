// Agents: the list, a new agent and one agent's editor (their run logs are in the event logs area).
import { type RouteObject } from 'react-router';

import { AGENTS_PATH, NEW_AGENT_PATH } from '../../config/paths';
import { type TRouteHandle } from '../document-title';
import { PAGE_TITLES as T, SHELL_STRINGS } from '../strings';

export const AGENTS_ROUTES: RouteObject[] = [
  {
    path: AGENTS_PATH,
    handle: { title: SHELL_STRINGS.areas.agents } satisfies TRouteHandle,
    lazy: async () => ({
      Component: (await import('../../features/agents/routes/agents-route')).AgentsRoute,
    }),
  },
  {
    path: NEW_AGENT_PATH,
    handle: { title: T.newAgent } satisfies TRouteHandle,
    lazy: async () => ({
      Component: (await import('../../features/agents/routes/agent-route')).NewAgentRoute,
    }),
  },
  {
    path: `${AGENTS_PATH}/:id`,
    handle: { title: T.agent } satisfies TRouteHandle,
    lazy: async () => ({
      Component: (await import('../../features/agents/routes/agent-route')).AgentRoute,
    }),
  },
];
