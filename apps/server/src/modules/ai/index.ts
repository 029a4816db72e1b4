// The public face of the ai module (the AI in the inbox: the staff copilot and its runs).
// Everything else in modules/ai/ is private to it (eslint: titan-server/module-faces).
export { aiRoutes } from './ai.routes';
export type { AiDeps } from './ai.deps';
export { AI_RESPONDER_LOOP, asksForHuman, humanOnlyTopic, respondPending } from './ai.responder';
