// The default brain: what the simulator answers when no scripted answer is queued. Deterministic —
// the same request always gets the same answer — and sensible enough for the demo: a json_schema
// request gets a valid instance (an email template is a real MJML email from the prompt's words), a
// request that names a tool calls it, a tool result is summarised, anything else is echoed back.
import { briefOf, emailTemplateFor, isEmailTemplateSchema, keywordsOf } from './email';
import { instanceOf, type JsonSchema } from './json-schema';

export type ChatMessage = {
  role: 'system' | 'developer' | 'user' | 'assistant' | 'tool';
  content?: string | null | { type: string; text?: string }[];
  name?: string;
  tool_calls?: { id: string; type: 'function'; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
};

export type ChatTool = {
  type: 'function';
  function: { name: string; description?: string; parameters?: JsonSchema; strict?: boolean };
};

export type ToolChoice = 'none' | 'auto' | 'required' | { type: 'function'; function: { name: string } };

export type ResponseFormat =
  | { type: 'text' }
  | { type: 'json_object' }
  | { type: 'json_schema'; json_schema: { name: string; schema?: JsonSchema; strict?: boolean | null } };

export type ChatRequest = {
  model: string;
  messages: ChatMessage[];
  tools?: ChatTool[];
  tool_choice?: ToolChoice;
  response_format?: ResponseFormat;
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  max_tokens?: number;
  max_completion_tokens?: number;
  temperature?: number;
};

/** What an answer holds before it is put in OpenAI's shape (whole or as stream chunks). */
export type Answer = {
  content: string | null;
  toolCalls: { id: string; name: string; arguments: string }[];
  finishReason: 'stop' | 'tool_calls' | 'length';
};

export function textOf(content: ChatMessage['content']): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((p) => p.text ?? '').join('');
  return '';
}

const lastOf = <T>(list: T[], test: (v: T) => boolean): T | undefined => [...list].reverse().find(test);

/** A stable id from the request's text, so the same request gets the same tool call id. */
export function stableId(prefix: string, text: string, index = 0): string {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619) >>> 0;
  return `${prefix}_${h.toString(36)}${index}`;
}

const EMAIL = /[^\s@<>]+@[^\s@<>]+\.[a-z]{2,}/i;
const NUMBER = /\b\d+\b/;

/** Arguments for a tool: values the user's words supply (an email, a number), else a schema instance. */
function argumentsFor(tool: ChatTool, said: string): string {
  const schema = tool.function.parameters ?? { type: 'object', properties: {} };
  const topic = said.replace(/\s+/g, ' ').trim().slice(0, 120);
  const args = instanceOf(schema, { topic, words: keywordsOf(said) }) as Record<string, unknown>;
  for (const [key, prop] of Object.entries(schema.properties ?? {})) {
    const type = Array.isArray(prop.type) ? prop.type[0] : prop.type;
    if (type === 'string' && /email/i.test(key) && EMAIL.test(said)) args[key] = EMAIL.exec(said)![0];
    else if ((type === 'integer' || type === 'number') && /(^|_)id$|count|number|limit/i.test(key)) {
      const n = NUMBER.exec(said);
      if (n) args[key] = Number(n[0]);
    } else if (type === 'string' && /query|search|text|message|q$/i.test(key)) args[key] = topic;
  }
  return JSON.stringify(args);
}

/** A tool the user named (its name, or its name with spaces for underscores), first mention first. */
function namedTool(tools: ChatTool[], said: string): ChatTool | undefined {
  const lower = said.toLowerCase();
  let best: { tool: ChatTool; at: number } | undefined;
  for (const tool of tools) {
    const name = tool.function.name.toLowerCase();
    const at = [name, name.replace(/[_-]+/g, ' ')]
      .map((n) => lower.indexOf(n))
      .filter((i) => i >= 0)
      .sort((a, b) => a - b)[0];
    if (at !== undefined && (!best || at < best.at)) best = { tool, at };
  }
  return best?.tool;
}

function summary(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const first = /^(.{1,200}?[.!?])(\s|$)/.exec(flat)?.[1] ?? flat.slice(0, 200);
  return first || '(nothing)';
}

export function defaultAnswer(req: ChatRequest): Answer {
  const lastUser = lastOf(req.messages, (m) => m.role === 'user');
  const said = textOf(lastUser?.content);
  const seed = JSON.stringify(req.messages);
  const format = req.response_format;
  const last = req.messages[req.messages.length - 1];
  const tools = req.tools ?? [];
  const choice = req.tool_choice ?? 'auto';

  // Tools: a forced tool, or one the user named; after a tool's result, its summary.
  if (tools.length > 0 && choice !== 'none' && last?.role !== 'tool') {
    let tool: ChatTool | undefined;
    if (typeof choice === 'object') tool = tools.find((t) => t.function.name === choice.function.name);
    else if (choice === 'required') tool = namedTool(tools, said) ?? tools[0];
    else tool = namedTool(tools, said);
    if (tool) {
      return {
        content: null,
        toolCalls: [
          { id: stableId('call', seed), name: tool.function.name, arguments: argumentsFor(tool, said) },
        ],
        finishReason: 'tool_calls',
      };
    }
  }

  if (format?.type === 'json_schema') {
    const schema = format.json_schema.schema;
    const value = isEmailTemplateSchema(schema)
      ? emailTemplateFor(briefOf(said))
      : instanceOf(schema ?? { type: 'object', properties: {} }, {
          topic: summary(said).slice(0, 80),
          words: keywordsOf(said),
        });
    return { content: JSON.stringify(value), toolCalls: [], finishReason: 'stop' };
  }
  if (format?.type === 'json_object') {
    return { content: JSON.stringify({ answer: summary(said) }), toolCalls: [], finishReason: 'stop' };
  }
  if (last?.role === 'tool') {
    const call = lastOf(req.messages, (m) => m.role === 'assistant' && !!m.tool_calls?.length);
    const name = call?.tool_calls?.find((c) => c.id === last.tool_call_id)?.function.name ?? 'the tool';
    return {
      content: `${name} answered: ${summary(textOf(last.content))}`,
      toolCalls: [],
      finishReason: 'stop',
    };
  }
  return { content: `You said: ${summary(said)}`, toolCalls: [], finishReason: 'stop' };
}

/** Tokens as the simulator counts them: about four characters each, never zero for text. */
export function countTokens(text: string): number {
  return text ? Math.max(1, Math.ceil(text.length / 4)) : 0;
}

export function promptTokens(req: ChatRequest): number {
  const messages = req.messages.reduce(
    (n, m) => n + 4 + countTokens(textOf(m.content)) + countTokens(JSON.stringify(m.tool_calls ?? '')),
    0,
  );
  const extras =
    countTokens(JSON.stringify(req.tools ?? '')) + countTokens(JSON.stringify(req.response_format ?? ''));
  return messages + extras;
}
