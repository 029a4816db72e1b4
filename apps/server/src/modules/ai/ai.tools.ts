// The first responder's outside tools (issue 33: "answers from retrieved articles and allowed
// tools (MCP, plugins — e.g. an order lookup)"). A chat group allows tools of the business's own
// connected MCP servers and plugin connections; the agents module's gate prepares and calls them
// (connections refreshed, SSRF rules, failures answered in words, never thrown).
//
// Scoped to the business and to the conversation's customer: a tool is offered only when it takes
// the customer's identity (customer_id, customer_email, email, customer_phone, phone), those
// arguments are removed from what the model sees and filled by Titan with the conversation's
// customer on every call — whatever the model (or an instruction planted in a message or article)
// puts there. A tool that takes no identity (e.g. "look up any order by number") could read anyone's
// data, so it is not offered, and the run says why.
import { AI_CUSTOMER_ARGUMENTS, type TAiResponderTool } from '@titan/contracts';
import {
  callExternalTool,
  type ExternalTool,
  type ExternalToolDeps,
  prepareExternalTools,
} from '../outside-tools';
import type { CustomerRow } from '../directory';

type Identity = Partial<Record<(typeof AI_CUSTOMER_ARGUMENTS)[number], string>>;

/** What Titan knows of the conversation's customer, under each identity argument's name. */
export function identityOf(customer: Pick<CustomerRow, 'email' | 'phone' | 'externalId'> | null): Identity {
  if (!customer) return {};
  const id: Identity = {};
  if (customer.externalId) id.customer_id = customer.externalId;
  if (customer.email) id.customer_email = id.email = customer.email;
  if (customer.phone) id.customer_phone = id.phone = customer.phone;
  return id;
}

export type ScopedTool = {
  tool: ExternalTool;
  /** The identity arguments the tool takes (filled by Titan). */
  pinned: string[];
  /** The schema the model sees: the tool's, without the identity arguments. */
  parameters: Record<string, unknown>;
};

const propertiesOf = (schema: Record<string, unknown>) =>
  (schema.properties && typeof schema.properties === 'object'
    ? (schema.properties as Record<string, unknown>)
    : {}) as Record<string, unknown>;

/**
 * The allowed tools ready for this run: those unavailable (not connected, gone) and those that take
 * no customer identity come back as `refused`, with the reason in words.
 */
export async function scopedTools(
  deps: ExternalToolDeps,
  businessId: number,
  allowed: TAiResponderTool[],
  identity: Identity,
): Promise<{ tools: ScopedTool[]; refused: { name: string; reason: string }[] }> {
  const { tools, unavailable } = await prepareExternalTools(
    deps,
    businessId,
    allowed.map((t) => ({ ...t, approval: 'auto' as const })),
  );
  const refused = unavailable.map((u) => ({ name: u.tool.name, reason: u.reason }));
  const scoped: ScopedTool[] = [];
  for (const tool of tools) {
    const properties = propertiesOf(tool.inputSchema);
    const pinned = AI_CUSTOMER_ARGUMENTS.filter((a) => a in properties);
    if (pinned.length === 0) {
      refused.push({
        name: tool.name,
        reason: `Not offered: ${tool.name} takes no customer (${AI_CUSTOMER_ARGUMENTS.join(', ')}), so it could read other customers’ data.`,
      });
      continue;
    }
    const missing = pinned.filter((a) => identity[a] === undefined);
    if (missing.length === pinned.length) {
      refused.push({
        name: tool.name,
        reason: `Not offered: the customer’s ${pinned.join(' / ')} is not known.`,
      });
      continue;
    }
    const required = Array.isArray(tool.inputSchema.required)
      ? (tool.inputSchema.required as string[]).filter((r) => !pinned.includes(r as never))
      : undefined;
    scoped.push({
      tool,
      pinned,
      parameters: {
        ...tool.inputSchema,
        type: 'object',
        properties: Object.fromEntries(
          Object.entries(properties).filter(([k]) => !pinned.includes(k as never)),
        ),
        ...(required ? { required } : {}),
      },
    });
  }
  return { tools: scoped, refused };
}

/** Calls a scoped tool: the model's arguments, with every identity argument set to the customer's. */
export async function callScopedTool(
  deps: ExternalToolDeps,
  businessId: number,
  scoped: ScopedTool,
  modelArguments: unknown,
  identity: Identity,
) {
  const given =
    modelArguments && typeof modelArguments === 'object' && !Array.isArray(modelArguments)
      ? (modelArguments as Record<string, unknown>)
      : {};
  const input: Record<string, unknown> = { ...given };
  for (const a of scoped.pinned) {
    if (identity[a as keyof Identity] !== undefined) input[a] = identity[a as keyof Identity];
    else delete input[a];
  }
  const result = await callExternalTool(deps, businessId, scoped.tool, input);
  return { input, result };
}
