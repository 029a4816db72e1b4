// User-visible strings of the AI model settings tab; tests and components share them from here.
export const LLM_STRINGS = {
  title: 'AI model',
  description:
    'The OpenAI-compatible model behind AI templates and agents: OpenAI, Azure OpenAI, Groq, Together, OpenRouter, a local Ollama or vLLM — anything that speaks the chat completions API.',
  inUse: {
    business: (model: string) => `AI features use this business’s own model, ${model}.`,
    server: (model: string) => `AI features use the server’s model, ${model}. Set one below to use your own.`,
    none: 'No AI model is set up yet: AI features are off until you connect one.',
  },
  usage: (calls: number, tokens: number) =>
    `Last 30 days: ${calls} ${calls === 1 ? 'call' : 'calls'}, ${tokens.toLocaleString('en-US')} tokens.`,
  baseUrl: 'Base URL',
  baseUrlHint:
    'The API root, usually ending in /v1 — e.g. https://api.openai.com/v1 or http://localhost:11434/v1.',
  model: 'Model',
  modelHint: 'As the provider names it, e.g. gpt-4o-mini or llama3.1.',
  embeddingModel: 'Embedding model (optional)',
  embeddingModelHint:
    'A model for /embeddings at the same server, e.g. text-embedding-3-small: knowledge-base search then ranks by meaning as well as by words. Empty: search by words only.',
  apiKey: 'API key',
  apiKeyHint:
    'Stored encrypted and never shown again. Leave empty to keep the stored key; a new base URL needs the key again.',
  apiKeyStored: 'Stored — leave empty to keep it',
  removeKey: 'Remove the stored key',
  save: 'Save',
  saving: 'Saving…',
  saved: 'AI model saved',
  useServer: 'Use the server’s model instead',
  forget: 'Remove this business’s model',
  forgotten: 'This business’s model was removed',
  forgetTitle: 'Remove this business’s model?',
  forgetText: 'AI features will use the server’s model, if it has one, or be off.',
  forgetConfirm: 'Remove',
  test: 'Test connection',
  testing: 'Testing…',
  testOk: (model: string, ms: number) => `${model} answered in ${ms} ms:`,
  testFailed: (model: string) => `${model} did not answer:`,
  loadFailed: 'The AI model settings could not be loaded.',
  readOnly: 'Only owners and admins can change the AI model.',
} as const;
