// The public face of the agents module: what other modules and the app's composition may use.
// Everything else in modules/agents/ is private to it (eslint: titan-server/module-faces).

export { defineAgentRunJobs, defineAgentScheduleTick } from './agents.jobs';
export { agentRoutes } from './agents.routes';
export { agentRunCounts } from './runs/read-model';
export { agentRunRoutes } from './agents.runs.routes';
export {
  type AgentDeliveryPorts,
  type AgentRunDeps,
  type AgentRunPorts,
  createAgentRunDeps,
} from './runs/deps';
export { deleteCustomerTraces as deleteCustomerAgentTraces } from './agents.runs.repository';
export {
  agentChannelsOf,
  CUSTOMER_RUN_WORDS,
  type CustomerRunStart,
  dispatchCustomerRuns,
  startCustomerRun,
} from './runs/customer-run';
