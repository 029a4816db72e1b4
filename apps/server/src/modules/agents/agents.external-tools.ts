// Tools from outside Titan — connected MCP servers and plugins — as agents see them (engage.md §6).
// The agents module asks here, and only here: whether a config may name a server, which of the
// tools a config allows are available for a run (connections refreshed ahead of it), and to call
// one. The MCP servers and plugins modules answer behind these three functions; until a business
// connects one, nothing outside Titan is offered.
import type { TAgentTool } from '@titan/contracts';
import type { Db } from '../../db/client';
import type { SecretBox } from '../../platform/crypto';
import type { Logger } from 'pino';

export type ExternalToolDeps = {
  db: Db;
  secrets: SecretBox;
  logger: Logger;
  /** Outside production, http://localhost servers are allowed (SSRF rules, engage.md §6). */
  production: boolean;
  publicUrl: string;
};

export type ExternalTool = {
  source: 'mcp' | 'plugin';
  serverId: number;
  /** The tool's own name at its server. */
  name: string;
  /** The name offered to the model: prefixed by its source, [A-Za-z0-9_-] only, at most 64 characters. */
  modelName: string;
  description: string;
  /** JSON Schema of the tool's arguments (an object schema). */
  inputSchema: Record<string, unknown>;
  approval: 'auto' | 'review';
};

export type UnavailableTool = { tool: TAgentTool; reason: string };
export type ExternalToolResult = { ok: true; output: unknown } | { ok: false; error: string };

/** Whether `serverId` is one of the business's MCP servers (`mcp`) or plugin connections (`plugin`). */
export async function externalServerExists(
  _db: Db,
  _businessId: number,
  _source: 'mcp' | 'plugin',
  _serverId: number,
): Promise<boolean> {
  return false;
}

/** Every tool of the business's connected MCP servers and plugins, for the agent screen's picker. */
export async function listExternalTools(
  _deps: ExternalToolDeps,
  _businessId: number,
): Promise<ExternalTool[]> {
  return [];
}

/**
 * The outside tools a config allows, ready for a run starting now: tokens that would expire during
 * it are refreshed first (one refresh at a time per connection). Tools that cannot be offered are
 * answered with the reason in words, and the run records it as a step.
 */
export async function prepareExternalTools(
  _deps: ExternalToolDeps,
  _businessId: number,
  allowed: TAgentTool[],
): Promise<{ tools: ExternalTool[]; unavailable: UnavailableTool[] }> {
  const outside = allowed.filter((t) => t.source !== 'builtin');
  return {
    tools: [],
    unavailable: outside.map((tool) => ({ tool, reason: 'No connected MCP server or plugin with this id.' })),
  };
}

/** Calls one outside tool; a failure is answered, never thrown, so the run can record it. */
export async function callExternalTool(
  _deps: ExternalToolDeps,
  _businessId: number,
  tool: ExternalTool,
  _input: unknown,
  _signal?: AbortSignal,
): Promise<ExternalToolResult> {
  return { ok: false, error: `The tool ${tool.modelName} is not connected.` };
}
