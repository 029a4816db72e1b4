// The tools picker: what GET /api/agents/tools/ offers — Titan's built-ins, then the tools of
// connected MCP servers and plugins — each ticked on or off with its approval setting (use without
// asking, or ask first). A chosen tool that is no longer offered stays listed so it can be removed.
import type { TAgentTool, TAgentToolInfo } from '@titan/contracts';

import { SectionError, SectionLoading } from '../../../components/load-state';
import { NativeSelect } from '../../../components/ui/native-select';
import { StatusBadge } from '../../../components/status-badge';
import { useAgentTools } from '../api/get-agent-tools';
import { AGENT_STRINGS } from '../strings';
import { CheckboxRow, Section } from './section';

const E = AGENT_STRINGS.editor;
const SOURCES = ['builtin', 'mcp', 'plugin'] as const;

type TToolRef = Pick<TAgentTool, 'source' | 'name'> & { server_id?: number | undefined };

const sameTool = (a: TToolRef, b: TToolRef) =>
  a.source === b.source && a.name === b.name && (a.server_id ?? null) === (b.server_id ?? null);

function refOf(info: TAgentToolInfo): TToolRef {
  return {
    source: info.source,
    name: info.name,
    ...(info.server_id !== null ? { server_id: info.server_id } : {}),
  };
}

function ToolRow({
  label,
  description,
  sends,
  chosen,
  disabled,
  onToggle,
  onApproval,
}: {
  label: string;
  description: string;
  sends: boolean;
  chosen: TAgentTool | undefined;
  disabled: boolean;
  onToggle: (on: boolean) => void;
  onApproval: (approval: 'auto' | 'review') => void;
}) {
  return (
    <li className="flex flex-wrap items-start justify-between gap-3 py-2">
      <CheckboxRow
        checked={Boolean(chosen)}
        disabled={disabled}
        onChange={onToggle}
        label={
          <span className="inline-flex items-center gap-2">
            <span className="font-mono text-xs">{label}</span>
            {sends ? <StatusBadge tone="waiting">{E.sendsBadge}</StatusBadge> : null}
          </span>
        }
        detail={description}
      />
      {chosen ? (
        <NativeSelect
          aria-label={E.approval(label)}
          className="w-48"
          disabled={disabled}
          value={chosen.approval}
          onChange={(e) => onApproval(e.target.value as 'auto' | 'review')}
        >
          <option value="auto">{E.approvalOptions.auto}</option>
          <option value="review">{E.approvalOptions.review}</option>
        </NativeSelect>
      ) : null}
    </li>
  );
}

export function ToolsField({
  value,
  onChange,
  error,
  disabled,
}: {
  value: TAgentTool[];
  onChange: (tools: TAgentTool[]) => void;
  error: string | undefined;
  disabled: boolean;
}) {
  const tools = useAgentTools();
  const find = (ref: TToolRef) => value.find((t) => sameTool(t, ref));
  const toggle = (ref: TToolRef, on: boolean) =>
    onChange(on ? [...value, { ...ref, approval: 'auto' }] : value.filter((t) => !sameTool(t, ref)));
  const setApproval = (ref: TToolRef, approval: 'auto' | 'review') =>
    onChange(value.map((t) => (sameTool(t, ref) ? { ...t, approval } : t)));

  if (tools.isPending)
    return (
      <Section title={E.toolsTitle} hint={E.toolsHint}>
        <SectionLoading />
      </Section>
    );
  if (tools.isError)
    return (
      <Section title={E.toolsTitle} hint={E.toolsHint}>
        <SectionError error={tools.error} onRetry={() => void tools.refetch()} fallback={E.toolsFailed} />
      </Section>
    );
  const gone = value.filter((t) => !tools.data.some((info) => sameTool(refOf(info), t)));
  const hasOutside = tools.data.some((t) => t.source !== 'builtin');
  return (
    <Section title={E.toolsTitle} hint={E.toolsHint} error={error}>
      {SOURCES.map((source) => {
        const ofSource = tools.data.filter((t) => t.source === source);
        if (ofSource.length === 0) return null;
        return (
          <div key={source} className="grid gap-1">
            <h3 className="text-sm font-medium">{E.toolSource[source]}</h3>
            <ul className="divide-y">
              {ofSource.map((info) => {
                const ref = refOf(info);
                return (
                  <ToolRow
                    key={`${source}:${info.server_id ?? ''}:${info.name}`}
                    label={info.name}
                    description={info.description}
                    sends={info.sends}
                    chosen={find(ref)}
                    disabled={disabled}
                    onToggle={(on) => toggle(ref, on)}
                    onApproval={(a) => setApproval(ref, a)}
                  />
                );
              })}
            </ul>
          </div>
        );
      })}
      {hasOutside ? null : <p className="text-sm text-muted-foreground">{E.noOutsideTools}</p>}
      {gone.length > 0 ? (
        <ul className="divide-y">
          {gone.map((t) => (
            <ToolRow
              key={`gone:${t.source}:${t.server_id ?? ''}:${t.name}`}
              label={E.unknownTool(t.name)}
              description=""
              sends={false}
              chosen={t}
              disabled={disabled}
              onToggle={(on) => toggle(t, on)}
              onApproval={(a) => setApproval(t, a)}
            />
          ))}
        </ul>
      ) : null}
    </Section>
  );
}
