// The editor's model of a journey graph: new steps with a starting config, the ways out of a step,
// linking steps, a one-line summary per step, and the server's 400/404 field errors placed on the
// step (and field) they name (`graph.nodes.2.config.seconds` → step 2, field `config.seconds`).
import { journeyExitLabels, type TFieldErrors, type TJourneyEdge, type TJourneyNode } from '@titan/contracts';

import { PANEL_STRINGS, STEP_TITLES } from './strings';

export type TGraph = { nodes: TJourneyNode[]; edges: TJourneyEdge[] };

/** The step types the editor offers (every type the server runs). */
export const EDITABLE_STEP_TYPES = [
  'trigger',
  'wait',
  'branch',
  'send',
  'agent',
  'update',
  'conversation',
  'webhook',
  'exit',
] as const;

const DEFAULT_CONFIG: Record<(typeof EDITABLE_STEP_TYPES)[number], TJourneyNode['config']> = {
  trigger: { kind: 'event', event: 'signed_up' },
  wait: { kind: 'duration', seconds: 3600 },
  branch: { kind: 'condition', rules: [{ field: 'event.properties.plan', op: 'eq', value: 'pro' }] },
  send: { channel: 'email', consent: 'subscribed' },
  // No agent chosen yet: the server names the field until one is.
  agent: { agent_id: 0 },
  update: { fields: {} },
  conversation: {},
  webhook: { url: 'https://' },
  exit: {},
};

const STEP_GAP_Y = 140;

export function newNode(
  type: (typeof EDITABLE_STEP_TYPES)[number],
  graph: TGraph,
  after?: TJourneyNode,
): TJourneyNode {
  let n = graph.nodes.filter((x) => x.type === type).length + 1;
  while (graph.nodes.some((x) => x.id === `${type}-${n}`)) n++;
  const below = after?.position ?? graph.nodes.at(-1)?.position;
  const position = below ? { x: below.x, y: below.y + STEP_GAP_Y } : { x: 0, y: 0 };
  return {
    id: `${type}-${n}`,
    type,
    config: structuredClone(DEFAULT_CONFIG[type]),
    position,
  } as TJourneyNode;
}

/** The labels of a step's ways out: `[undefined]` for one unlabelled way, `[]` for an exit. */
export function exitSlots(node: TJourneyNode): (string | undefined)[] {
  if (node.type === 'exit') return [];
  try {
    return journeyExitLabels(node) ?? [undefined];
  } catch {
    return [undefined];
  }
}

export function exitLabelText(label: string | undefined): string {
  if (label === undefined) return '';
  return PANEL_STRINGS.exitLabels[label] ?? label;
}

export function edgeOf(graph: TGraph, from: string, label: string | undefined): TJourneyEdge | undefined {
  return graph.edges.find((e) => e.from === from && e.label === label);
}

/** Points one way out of `from` at `to` (or removes it when `to` is null). */
export function linkSteps(graph: TGraph, from: string, label: string | undefined, to: string | null): TGraph {
  const edges = graph.edges.filter((e) => !(e.from === from && e.label === label));
  if (to !== null) edges.push(label === undefined ? { from, to } : { from, to, label });
  return { ...graph, edges };
}

/** Adds a step; when `after` has a free way out, the new step follows it there. */
export function addStep(
  graph: TGraph,
  type: (typeof EDITABLE_STEP_TYPES)[number],
  after?: TJourneyNode,
): {
  graph: TGraph;
  node: TJourneyNode;
} {
  const node = newNode(type, graph, after);
  let next: TGraph = { ...graph, nodes: [...graph.nodes, node] };
  if (after && type !== 'trigger') {
    const slots = exitSlots(after);
    const free = slots.findIndex((label) => !edgeOf(graph, after.id, label));
    if (free >= 0) next = linkSteps(next, after.id, slots[free], node.id);
  }
  return { graph: next, node };
}

export function removeStep(graph: TGraph, id: string): TGraph {
  return {
    nodes: graph.nodes.filter((n) => n.id !== id),
    edges: graph.edges.filter((e) => e.from !== id && e.to !== id),
  };
}

export function replaceNode(graph: TGraph, node: TJourneyNode): TGraph {
  const before = graph.nodes.find((n) => n.id === node.id);
  let edges = graph.edges;
  // A changed kind changes the ways out: drop edges whose label the step no longer has.
  if (before) {
    const labels = exitSlots(node);
    edges = edges.filter((e) => e.from !== node.id || labels.includes(e.label));
  }
  return { nodes: graph.nodes.map((n) => (n.id === node.id ? node : n)), edges };
}

export function stepTitle(node: TJourneyNode): string {
  return STEP_TITLES[node.type];
}

/** One line about what the step does. */
export function stepSummary(node: TJourneyNode): string {
  switch (node.type) {
    case 'trigger': {
      const c = node.config;
      if (c.kind === 'event') return `On ${c.event}`;
      if (c.kind === 'segment') return `Entering segment ${c.segment_id}`;
      return `On ${c.field} at ${c.local_time}`;
    }
    case 'wait': {
      const c = node.config;
      if (c.kind === 'duration') return `For ${formatSeconds(c.seconds)}`;
      if (c.kind === 'until_event') return `Until ${c.event} (at most ${formatSeconds(c.timeout_seconds)})`;
      return `Until ${c.local_time} local time`;
    }
    case 'branch': {
      const c = node.config;
      if (c.kind === 'split') return `Split ${c.weights.join(' / ')}`;
      return c.rules
        .map((r) => `${r.field} ${r.op}${r.value === undefined ? '' : ` ${String(r.value)}`}`)
        .join(' and ');
    }
    case 'send': {
      const c = node.config;
      const what = c.template_id ? `template ${c.template_id}` : c.body ? 'text' : 'no content yet';
      return `${PANEL_STRINGS.channels[c.channel]}: ${what}`;
    }
    case 'update': {
      const c = node.config;
      const parts = [
        ...Object.entries(c.fields ?? {}).map(([k, v]) => `${k} = ${String(v)}`),
        ...(c.add_list_ids?.length ? [`+ list ${c.add_list_ids.join(', ')}`] : []),
        ...(c.remove_list_ids?.length ? [`− list ${c.remove_list_ids.join(', ')}`] : []),
        ...(c.add_label_ids?.length ? [`+ label ${c.add_label_ids.join(', ')}`] : []),
      ];
      return parts.length ? parts.join('; ') : 'Nothing yet';
    }
    case 'conversation': {
      const c = node.config;
      const parts = [
        ...(c.chat_group_id ? [`group ${c.chat_group_id}`] : []),
        ...(c.assignee_id ? [`assigned to ${c.assignee_id}`] : []),
      ];
      return parts.length ? `Opens a conversation: ${parts.join(', ')}` : 'Opens a conversation';
    }
    case 'agent':
      return node.config.agent_id
        ? `Hands the customer to agent ${node.config.agent_id}${node.config.channel ? ` on ${node.config.channel}` : ''}`
        : 'No agent yet';
    case 'webhook':
      return `POST ${node.config.url}`;
    case 'exit':
      return 'Leaves the journey';
    default:
      return '';
  }
}

export function formatSeconds(s: number): string {
  if (s % 86_400 === 0) return `${s / 86_400} d`;
  if (s % 3600 === 0) return `${s / 3600} h`;
  if (s % 60 === 0) return `${s / 60} min`;
  return `${s} s`;
}

export type TGraphErrors = {
  /** Per step id, per field inside the step (`config.seconds`, `type`, `edges` for its ways out). */
  steps: Record<string, Record<string, string>>;
  /** Errors no step owns (the name, "one trigger"). */
  general: string[];
};

export const NO_ERRORS: TGraphErrors = { steps: {}, general: [] };

export function placeErrors(fieldErrors: TFieldErrors | null, graph: TGraph): TGraphErrors {
  const out: TGraphErrors = { steps: {}, general: [] };
  const put = (id: string, field: string, message: string) => {
    out.steps[id] = { ...out.steps[id], [field]: message };
  };
  for (const [key, messages] of Object.entries(fieldErrors ?? {})) {
    const message = messages.join(' ');
    const node = /^graph\.nodes\.(\d+)(?:\.(.+))?$/.exec(key);
    const edge = /^graph\.edges\.(\d+)(?:\.(.+))?$/.exec(key);
    if (node && graph.nodes[Number(node[1])]) {
      put(graph.nodes[Number(node[1])]!.id, node[2] ?? 'type', message);
    } else if (edge && graph.edges[Number(edge[1])]) {
      const e = graph.edges[Number(edge[1])]!;
      const owner = graph.nodes.some((n) => n.id === e.from) ? e.from : e.to;
      put(owner, 'edges', message);
    } else
      out.general.push(key === 'non_field_errors' || key === 'graph.nodes' ? message : `${key}: ${message}`);
  }
  return out;
}

/** The error on a field of a step: exact, or the first nested under it (`config.add_list_ids.0`). */
export function fieldError(errors: Record<string, string> | undefined, field: string): string | undefined {
  if (!errors) return undefined;
  if (errors[field]) return errors[field];
  const nested = Object.keys(errors).find((k) => k.startsWith(`${field}.`));
  return nested ? errors[nested] : undefined;
}
