// The public face of the llm module: what other modules and the app's composition may use.
// Everything else in modules/llm/ is private to it (eslint: titan-server/module-faces).

export { llmRoutes } from './llm.routes';
export { llmAppError, type LlmDeps, LlmError, type LlmSession, openLlm, resolveLlm } from './llm.service';
