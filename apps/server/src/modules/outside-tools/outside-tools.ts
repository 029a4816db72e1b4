// Tools from outside Titan — connected MCP servers and plugins — as agents and the AI responder see
// them (engage.md §6). They ask here, and only here: whether a config may name a server, which of the
// tools a config allows are available for a run (connections refreshed ahead of it), and to call
// one. The MCP servers and plugins modules answer behind these three functions; until a business
// connects one, nothing outside Titan is offered.
import { MCP_ERRORS, type TAgentTool, type TPluginManifest } from '@titan/contracts';
import type { Db } from '../../db/client';
import type { SecretBox } from '../../platform/crypto';
import type { Mailer } from '../../platform/mailer';
import type { Logger } from 'pino';
import {
  callMcpTool,
  findMcpServerRow,
  listMcpServerRows,
  mcpErrorWords,
  type McpServerRow,
  readyForRun,
  toolInfos,
} from '../mcp-servers';
import {
  callPluginTool,
  ensureFreshPlugin,
  findPluginRow,
  listPluginRows,
  pluginCatalogue,
  type PluginConnectionRow,
  pluginToolsOf,
} from '../plugins';

const NO_CONNECTION = 'No connected MCP server or plugin with this id.';

export type ExternalToolDeps = {
  db: Db;
  secrets: SecretBox;
  logger: Logger;
  /** The SSRF rules in full (production, or HOST not loopback); else http://localhost is allowed too. */
  guarded: boolean;
  publicUrl: string;
  /** Resolves a host name for the SSRF checks (tests replace it). */
  resolveHost?: (host: string) => Promise<string[]>;
  /** How long one call to an outside server may take (ms); 30 s by default. */
  timeoutMs?: number;
  /** Plugin manifests beyond the built-in ones (PLUGIN_MANIFESTS_FILE, tests). */
  pluginManifests?: TPluginManifest[];
  /** Tells owners and admins by mail when a connection's grant ends. */
  mailer?: Mailer;
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

/** A run's length: tokens that would expire within it are refreshed before it starts. */
export const RUN_TOKEN_HORIZON_MS = 15 * 60 * 1000;

/** Whether `serverId` is one of the business's MCP servers (`mcp`) or plugin connections (`plugin`). */
export async function externalServerExists(
  db: Db,
  businessId: number,
  source: 'mcp' | 'plugin',
  serverId: number,
): Promise<boolean> {
  return source === 'mcp'
    ? (await findMcpServerRow({ db }, businessId, serverId)) !== null
    : (await findPluginRow({ db }, businessId, serverId)) !== null;
}

function mcpTools(row: McpServerRow, approval: (name: string) => 'auto' | 'review'): ExternalTool[] {
  return toolInfos(row.id, row.tools).map((t) => ({
    source: 'mcp',
    serverId: row.id,
    name: t.name,
    modelName: t.model_name,
    description: t.description,
    inputSchema: t.input_schema,
    approval: approval(t.name),
  }));
}

function pluginTools(
  deps: ExternalToolDeps,
  row: PluginConnectionRow,
  approval: (name: string) => 'auto' | 'review',
): ExternalTool[] {
  const manifest = pluginCatalogue(deps).find((m) => m.id === row.plugin);
  if (!manifest) return [];
  return toolInfos(row.id, pluginToolsOf(manifest), 'plugin').map((t) => ({
    source: 'plugin',
    serverId: row.id,
    name: t.name,
    modelName: t.model_name,
    description: `${manifest.name}: ${t.description}`,
    inputSchema: t.input_schema,
    approval: approval(t.name),
  }));
}

/** Every tool of the business's connected MCP servers and plugins, for the agent screen's picker. */
export async function listExternalTools(deps: ExternalToolDeps, businessId: number): Promise<ExternalTool[]> {
  const servers = await listMcpServerRows(deps, businessId);
  const plugins = await listPluginRows(deps, businessId);
  return [
    ...servers.filter((s) => s.status === 'connected').flatMap((s) => mcpTools(s, () => 'auto')),
    ...plugins.filter((p) => p.status === 'connected').flatMap((p) => pluginTools(deps, p, () => 'auto')),
  ];
}

/**
 * The outside tools a config allows, ready for a run starting now: tokens that would expire during
 * it are refreshed first (one refresh at a time per connection). Tools that cannot be offered are
 * answered with the reason in words, and the run records it as a step.
 */
export async function prepareExternalTools(
  deps: ExternalToolDeps,
  businessId: number,
  allowed: TAgentTool[],
): Promise<{ tools: ExternalTool[]; unavailable: UnavailableTool[] }> {
  const tools: ExternalTool[] = [];
  const unavailable: UnavailableTool[] = [];
  const outside = allowed.filter((t) => t.source !== 'builtin' && t.server_id !== undefined);
  const groups = new Map<string, TAgentTool[]>();
  for (const t of outside) {
    const key = `${t.source}:${t.server_id}`;
    groups.set(key, [...(groups.get(key) ?? []), t]);
  }
  for (const wanted of groups.values()) {
    const { source, server_id: id } = wanted[0]!;
    const approvalOf = (name: string) => wanted.find((w) => w.name === name)?.approval ?? 'auto';
    const refuse = (reason: string) => unavailable.push(...wanted.map((tool) => ({ tool, reason })));
    let offered: ExternalTool[];
    if (source === 'mcp') {
      const row = await findMcpServerRow(deps, businessId, id!);
      if (!row) {
        refuse(NO_CONNECTION);
        continue;
      }
      try {
        const fresh = await readyForRun(deps, row, RUN_TOKEN_HORIZON_MS);
        if (fresh.status !== 'connected') {
          refuse(`${fresh.name}: ${fresh.lastError ?? MCP_ERRORS.notConnected}`);
          continue;
        }
        offered = mcpTools(fresh, approvalOf);
      } catch (err) {
        refuse(`${row.name}: ${mcpErrorWords(err)}`);
        continue;
      }
    } else {
      const row = await findPluginRow(deps, businessId, id!);
      if (!row) {
        refuse(NO_CONNECTION);
        continue;
      }
      try {
        const fresh = await ensureFreshPlugin(deps, row, RUN_TOKEN_HORIZON_MS);
        if (fresh.status !== 'connected') {
          refuse(`${fresh.name}: ${fresh.lastError ?? MCP_ERRORS.notConnected}`);
          continue;
        }
        offered = pluginTools(deps, fresh, approvalOf);
      } catch (err) {
        refuse(`${row.name}: ${mcpErrorWords(err)}`);
        continue;
      }
    }
    for (const t of wanted) {
      const found = offered.find((o) => o.name === t.name);
      if (found) tools.push(found);
      else
        unavailable.push({
          tool: t,
          reason: `The tool ${t.name} is not offered by this ${source === 'mcp' ? 'MCP server' : 'plugin'} any more.`,
        });
    }
  }
  return { tools, unavailable };
}

/** Calls one outside tool; a failure is answered, never thrown, so the run can record it. */
export async function callExternalTool(
  deps: ExternalToolDeps,
  businessId: number,
  tool: ExternalTool,
  input: unknown,
  signal?: AbortSignal,
): Promise<ExternalToolResult> {
  try {
    if (tool.source === 'mcp') {
      const row = await findMcpServerRow(deps, businessId, tool.serverId);
      if (!row) return { ok: false, error: NO_CONNECTION };
      return await callMcpTool(deps, row, tool.name, input, signal);
    }
    const row = await findPluginRow(deps, businessId, tool.serverId);
    if (!row) return { ok: false, error: NO_CONNECTION };
    return await callPluginTool(deps, row, tool.name, input, signal);
  } catch (err) {
    return { ok: false, error: mcpErrorWords(err) };
  }
}
