// @titan/llm-sim: a local OpenAI-compatible chat completions server with scripted, deterministic answers.
export {
  DEFAULT_SIM_KEY,
  DEFAULT_SIM_MODEL,
  startLlmSim,
  type LlmSim,
  type LlmSimOptions,
  type RecordedRequest,
  type ScriptStep,
} from './sim';
export { defaultAnswer, type ChatRequest, type ChatMessage, type ChatTool } from './brain';
export { emailTemplateFor, briefOf } from './email';
export { instanceOf, violations, strictSchemaProblem, type JsonSchema } from './json-schema';
export { DEFAULT_SIM_EMBEDDING_MODEL, EMBEDDING_DIMENSIONS, embedText } from './embeddings';
