// What the agent did in a run, step by step: the model's reasoning and decisions, each tool it asked
// with the answer it got, each limit check (guardrail) with its verdict, and errors.
import type { TAgentRunStep } from '@titan/contracts';
import { BotIcon, CircleAlertIcon, ShieldCheckIcon, WrenchIcon } from 'lucide-react';

import { AGENT_STRINGS } from '../strings';

const G = AGENT_STRINGS.logs;
const ICONS = { llm: BotIcon, tool: WrenchIcon, guardrail: ShieldCheckIcon, error: CircleAlertIcon } as const;

/** A model's structured decision, when its answer is one: whether it sends, and why. */
function decisionOf(content: string): { send: boolean; reason: string } | null {
  try {
    const value = JSON.parse(content) as unknown;
    if (value && typeof value === 'object' && 'reason' in value && 'send' in value) {
      const { send, reason } = value as { send: unknown; reason: unknown };
      return { send: send === true, reason: typeof reason === 'string' ? reason : '' };
    }
  } catch {
    // Not JSON: the model's own words.
  }
  return null;
}

function isDecision(output: unknown): boolean {
  const content = (output as { content?: unknown } | null)?.content;
  return typeof content === 'string' && decisionOf(content) !== null;
}

/** The text a person reads first in a step's output: the model's words or decision, the tools it
 * asks for, a reason, an error. */
function textOf(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (!value || typeof value !== 'object') return null;
  const record = value as Record<string, unknown>;
  if (typeof record.content === 'string' && record.content.trim()) {
    const decision = decisionOf(record.content);
    if (decision) return `${decision.send ? G.decides.send : G.decides.skip} ${decision.reason}`.trim();
    // The model's own words before or instead of a decision.
    return record.content;
  }
  if (Array.isArray(record.tool_calls) && record.tool_calls.length > 0) {
    const names = record.tool_calls.map((c) => String((c as { name?: unknown }).name ?? '?'));
    return G.asksTools(names.join(', '));
  }
  for (const key of ['reasoning', 'reason', 'message', 'error']) {
    const text = record[key];
    if (typeof text === 'string' && text.trim()) return text;
  }
  return null;
}

function Data({ title, value }: { title: string; value: unknown }) {
  if (value === null || value === undefined) return null;
  return (
    <details className="rounded-md border">
      <summary className="cursor-pointer px-3 py-1.5 text-xs font-medium select-none">{title}</summary>
      <pre
        aria-label={title}
        className="max-h-80 overflow-auto border-t bg-muted/50 px-3 py-2 font-mono text-xs whitespace-pre-wrap"
      >
        {typeof value === 'string' ? value : JSON.stringify(value, null, 2)}
      </pre>
    </details>
  );
}

function labelsOf(kind: TAgentRunStep['kind']): { input: string; output: string } {
  if (kind === 'tool') return { input: G.toolCall, output: G.toolAnswer };
  if (kind === 'guardrail') return { input: G.input, output: G.decision };
  return { input: G.input, output: G.output };
}

export function RunSteps({
  steps,
  customerNames,
}: {
  steps: TAgentRunStep[];
  customerNames: Map<number, string>;
}) {
  if (steps.length === 0) return <p className="text-sm text-muted-foreground">{G.noSteps}</p>;
  return (
    <ol aria-label={G.stepsLabel} className="grid gap-3">
      {steps.map((step) => {
        const Icon = ICONS[step.kind];
        const text = textOf(step.output);
        const labels = labelsOf(step.kind);
        const who =
          step.customer_id === null
            ? null
            : (customerNames.get(step.customer_id) ?? G.stepCustomer(step.customer_id));
        return (
          <li key={step.seq} className="grid gap-2 rounded-lg border p-3">
            <div className="flex flex-wrap items-center gap-2 text-sm">
              <Icon
                aria-hidden="true"
                className={step.kind === 'error' ? 'size-4 text-destructive' : 'size-4'}
              />
              <span className="font-medium">{G.stepKind[step.kind]}</span>
              <span className="font-mono text-xs">{step.name}</span>
              {who ? <span className="text-muted-foreground">{G.stepFor(who)}</span> : null}
              <span className="ml-auto text-xs text-muted-foreground">
                {G.duration(step.duration_ms)}
                {step.tokens > 0 ? ` · ${G.tokens(step.tokens)}` : ''}
              </span>
            </div>
            {text ? (
              <p
                className={step.kind === 'error' ? 'text-sm text-destructive' : 'text-sm whitespace-pre-wrap'}
              >
                {step.kind === 'llm' && !isDecision(step.output) ? (
                  <span className="font-medium">{G.reasoning}: </span>
                ) : null}
                {text}
              </p>
            ) : null}
            <Data title={labels.input} value={step.input} />
            <Data title={labels.output} value={step.output} />
          </li>
        );
      })}
    </ol>
  );
}
