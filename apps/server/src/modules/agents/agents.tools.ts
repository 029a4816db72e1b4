// The tools Titan itself gives agents (engage.md §5): look up a customer and their conversations,
// list templates, and send an email, an SMS or a WhatsApp template. The send tools never send:
// the run loop puts what they ask through the guardrails and writes a delivery. Every tool acts on
// the business of the run only, and the customer tools (read and send) on the run's current
// recipient only: the model reads text customers wrote, so whatever it is told to ask for, it can
// never reach anyone else's data.
import { z } from 'zod';
import {
  AGENT_BUILTIN_TOOLS,
  AGENT_RUN_ERRORS as RM,
  type TAgentChannel,
  type TAgentToolInfo,
} from '@titan/contracts';
import { jsonSchemaOf, type LlmTool } from '../../platform/llm/llm.client';
import { businessScope } from '../../platform/inbox-scope';
import type { CustomerRow } from '../directory';
import type { ExternalTool } from '../outside-tools';
import type { AgentRunDeps } from './runs/deps';

export type BuiltinToolName = (typeof AGENT_BUILTIN_TOOLS)[number];

const ZVariables = z
  .array(z.object({ name: z.string(), value: z.string() }))
  .describe('Template variables as name/value pairs (e.g. first_name). Empty when none.');

const ZCustomerArg = z.object({
  customer_id: z
    .number()
    .int()
    .nullable()
    .describe('Null (or their id): the customer this decision is about. No other customer can be read.'),
});

export const ZSendEmailArgs = z.object({
  template_id: z.number().int().nullable().describe('An email template id, or null to write the mail.'),
  subject: z.string().nullable().describe('Without a template: the subject.'),
  body: z.string().nullable().describe('Without a template: the text of the mail.'),
  variables: ZVariables,
  reason: z.string().describe('Why this customer should get this mail now.'),
});
export const ZSendSmsArgs = z.object({
  body: z.string().describe('The text message, at most 1,600 characters.'),
  reason: z.string().describe('Why this customer should get this text now.'),
});
export const ZSendWhatsappArgs = z.object({
  template_id: z.number().int().describe('An approved WhatsApp template id.'),
  variables: ZVariables,
  reason: z.string().describe('Why this customer should get this message now.'),
});

type Builtin = { description: string; schema: z.ZodType; sends: TAgentChannel | null };

export const BUILTIN_TOOLS: Record<BuiltinToolName, Builtin> = {
  lookup_customer: {
    description:
      'Look up the customer this decision is about: name, email, phone, consent, custom fields, last seen.',
    schema: ZCustomerArg,
    sends: null,
  },
  customer_conversations: {
    description:
      'The latest conversations of the customer this decision is about with the business (title, channel, status, last message).',
    schema: ZCustomerArg,
    sends: null,
  },
  list_templates: {
    description: 'The business’s message templates for a channel (email or whatsapp), with their ids.',
    schema: z.object({ channel: z.enum(['email', 'whatsapp']).describe('Which templates.') }),
    sends: null,
  },
  send_email: {
    description:
      'Send this customer an email (a template, or a subject and body). It passes the guardrails and is recorded; it may wait for approval.',
    schema: ZSendEmailArgs,
    sends: 'email',
  },
  send_sms: {
    description:
      'Send this customer a text message. It passes the guardrails and is recorded; it may wait for approval.',
    schema: ZSendSmsArgs,
    sends: 'sms',
  },
  send_whatsapp_template: {
    description:
      'Send this customer an approved WhatsApp template. It passes the guardrails and is recorded; it may wait for approval.',
    schema: ZSendWhatsappArgs,
    sends: 'whatsapp',
  },
};

/** A built-in as the model sees it (strict JSON Schema parameters). */
const modelTools = new Map<BuiltinToolName, LlmTool>();
export function builtinModelTool(name: BuiltinToolName): LlmTool {
  let tool = modelTools.get(name);
  if (!tool) {
    const b = BUILTIN_TOOLS[name];
    tool = { name, description: b.description, parameters: jsonSchemaOf(b.schema), strict: true };
    modelTools.set(name, tool);
  }
  return tool;
}

export function externalModelTool(tool: ExternalTool): LlmTool {
  return { name: tool.modelName, description: tool.description, parameters: tool.inputSchema };
}

/** `GET /api/agents/tools/`: the built-ins, then the business's outside tools. */
export function toolInfos(external: ExternalTool[]): TAgentToolInfo[] {
  return [
    ...AGENT_BUILTIN_TOOLS.map((name) => ({
      source: 'builtin' as const,
      server_id: null,
      name,
      model_name: name,
      description: BUILTIN_TOOLS[name].description,
      input_schema: builtinModelTool(name).parameters,
      sends: BUILTIN_TOOLS[name].sends !== null,
    })),
    ...external.map((t) => ({
      source: t.source,
      server_id: t.serverId,
      name: t.name,
      model_name: t.modelName,
      description: t.description,
      input_schema: t.inputSchema,
      sends: false,
    })),
  ];
}

/** A customer as the model reads it (no internal keys). */
export function customerForModel(c: CustomerRow) {
  return {
    id: c.id,
    name: c.name,
    email: c.email,
    phone: c.phone,
    fields: c.fields,
    last_seen_at: c.lastSeenAt?.toISOString() ?? null,
    created_at: c.createdAt.toISOString(),
    consent: { email: c.emailStatus, sms: c.smsStatus, whatsapp: c.whatsappStatus },
  };
}

export const variablesOf = (pairs: { name: string; value: string }[]) =>
  Object.fromEntries(pairs.filter((p) => p.name).map((p) => [p.name, p.value]));

/** Runs a read-only built-in; answers what goes back to the model (JSON-able). */
export async function runReadTool(
  { db, ports }: Pick<AgentRunDeps, 'db' | 'ports'>,
  businessId: number,
  current: CustomerRow,
  name: 'lookup_customer' | 'customer_conversations' | 'list_templates',
  args: unknown,
): Promise<unknown> {
  switch (name) {
    case 'lookup_customer': {
      const { customer_id } = ZCustomerArg.parse(args);
      if (customer_id !== null && customer_id !== current.id) return { error: RM.otherCustomer(current.id) };
      return customerForModel(current);
    }
    case 'customer_conversations': {
      const { customer_id } = ZCustomerArg.parse(args);
      if (customer_id !== null && customer_id !== current.id) return { error: RM.otherCustomer(current.id) };
      const page = await ports.findCustomerConversations(db, businessScope(businessId), current.id, 1, 10);
      return { count: page.count, conversations: page.results };
    }
    case 'list_templates': {
      const { channel } = z.object({ channel: z.enum(['email', 'whatsapp']) }).parse(args);
      if (channel === 'email')
        return (await ports.email.findTemplates(db, businessId)).map((t) => ({
          id: t.id,
          name: t.name,
          subject: t.subject,
        }));
      return (await ports.whatsapp.findTemplates(db, businessId, { status: 'APPROVED' })).map((t) => ({
        id: t.id,
        name: t.name,
        language: t.language,
        parameters: t.body_parameter_names,
      }));
    }
  }
}
