// The public face of the agents module: what other modules and the app's composition may use.
// Everything else in modules/agents/ is private to it (eslint: titan-server/module-faces).

export type { ExternalToolDeps } from './agents.external-tools';
export { defineAgentRunJobs, defineAgentScheduleTick } from './agents.jobs';
export { agentRoutes } from './agents.routes';
export { agentRunCounts } from './agents.runs.api';
export { agentRunRoutes } from './agents.runs.routes';
export { type AgentRunDeps, createAgentRunDeps } from './agents.runs';
