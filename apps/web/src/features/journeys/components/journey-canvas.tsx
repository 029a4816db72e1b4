// The journey canvas (React Flow, its own lazily loaded chunk): each step a card with its summary,
// its live counts and a mark when the server refused it; drag to move a step, drag from a way out
// (a labelled dot at the bottom) to a step to link them, Delete removes a selected link. Steps are
// focusable: Tab reaches them and Enter selects one for the side panel.
import '@xyflow/react/dist/style.css';

import {
  Background,
  Controls,
  Handle,
  Position,
  ReactFlow,
  type Connection,
  type Edge,
  type EdgeChange,
  type Node,
  type NodeChange,
  type NodeProps,
} from '@xyflow/react';
import type { TJourneyNode, TJourneyStats } from '@titan/contracts';
import { CircleAlertIcon } from 'lucide-react';
import { useMemo } from 'react';

import { useThemeStore } from '../../../lib/theme';
import { cn } from '../../../lib/utils';
import { exitLabelText, exitSlots, stepSummary, stepTitle, type TGraph, type TGraphErrors } from '../graph';
import { EDITOR_STRINGS as S } from '../strings';

type TStepData = {
  node: TJourneyNode;
  counts: TJourneyStats['nodes'][string] | undefined;
  invalid: boolean;
};
type TStepNode = Node<TStepData, 'step'>;

function StepCard({ data, selected }: NodeProps<TStepNode>) {
  const { node, counts, invalid } = data;
  const slots = exitSlots(node);
  return (
    <div
      className={cn(
        'w-56 rounded-lg border bg-card p-3 text-card-foreground shadow-sm',
        selected && 'ring-2 ring-ring',
        invalid && 'border-destructive',
      )}
      data-testid={`step-${node.id}`}
    >
      {node.type !== 'trigger' ? <Handle type="target" position={Position.Top} /> : null}
      <div className="flex items-center justify-between gap-2">
        <p className="text-xs font-medium text-muted-foreground uppercase">{stepTitle(node)}</p>
        {invalid ? <CircleAlertIcon className="size-4 text-destructive" aria-label={S.saveFailed} /> : null}
      </div>
      <p className="mt-1 text-sm break-words">{stepSummary(node)}</p>
      <p className="mt-1 text-xs text-muted-foreground">{node.id}</p>
      {counts ? <p className="mt-2 text-xs tabular-nums">{S.countsOf(counts)}</p> : null}
      {slots.map((label, i) => (
        <Handle
          key={label ?? 'next'}
          id={label ?? 'next'}
          type="source"
          position={Position.Bottom}
          style={{ left: `${((i + 1) / (slots.length + 1)) * 100}%` }}
        >
          {label !== undefined ? (
            <span className="pointer-events-none absolute top-2 left-1/2 -translate-x-1/2 text-[10px] whitespace-nowrap text-muted-foreground">
              {exitLabelText(label)}
            </span>
          ) : null}
        </Handle>
      ))}
    </div>
  );
}

const NODE_TYPES = { step: StepCard };

export type TCanvasProps = {
  graph: TGraph;
  selectedId: string | null;
  stats: TJourneyStats | undefined;
  errors: TGraphErrors;
  readOnly: boolean;
  onSelect: (id: string | null) => void;
  onMove: (id: string, position: { x: number; y: number }) => void;
  onLink: (from: string, label: string | undefined, to: string | null) => void;
};

export function JourneyCanvas({
  graph,
  selectedId,
  stats,
  errors,
  readOnly,
  onSelect,
  onMove,
  onLink,
}: TCanvasProps) {
  const resolved = useThemeStore((s) => s.resolved);
  const nodes: TStepNode[] = useMemo(
    () =>
      graph.nodes.map((n, i) => ({
        id: n.id,
        type: 'step',
        position: n.position ?? { x: 0, y: i * 140 },
        selected: n.id === selectedId,
        ariaLabel: `${stepTitle(n)} ${n.id}: ${stepSummary(n)}`,
        data: { node: n, counts: stats?.nodes[n.id], invalid: Boolean(errors.steps[n.id]) },
      })),
    [graph.nodes, selectedId, stats, errors],
  );
  const edges: Edge[] = useMemo(
    () =>
      graph.edges.map((e) => ({
        id: `${e.from}:${e.label ?? ''}`,
        source: e.from,
        target: e.to,
        sourceHandle: e.label ?? 'next',
        label: e.label !== undefined ? exitLabelText(e.label) : undefined,
        data: { label: e.label },
      })),
    [graph.edges],
  );

  const onNodesChange = (changes: NodeChange<TStepNode>[]) => {
    for (const c of changes) {
      if (c.type === 'position' && c.position && !readOnly) onMove(c.id, c.position);
      if (c.type === 'select' && c.selected) onSelect(c.id);
    }
  };
  const onEdgesChange = (changes: EdgeChange[]) => {
    if (readOnly) return;
    for (const c of changes) {
      if (c.type !== 'remove') continue;
      const edge = edges.find((e) => e.id === c.id);
      if (edge) onLink(edge.source, (edge.data as { label?: string }).label, null);
    }
  };
  const onConnect = (c: Connection) => {
    if (readOnly || !c.source || !c.target || c.source === c.target) return;
    onLink(c.source, c.sourceHandle && c.sourceHandle !== 'next' ? c.sourceHandle : undefined, c.target);
  };

  return (
    <div className="h-[560px] w-full overflow-hidden rounded-lg border" role="group" aria-label={S.canvas}>
      <ReactFlow<TStepNode>
        nodes={nodes}
        edges={edges}
        nodeTypes={NODE_TYPES}
        colorMode={resolved}
        onNodesChange={onNodesChange}
        onEdgesChange={onEdgesChange}
        onConnect={onConnect}
        onPaneClick={() => onSelect(null)}
        nodesDraggable={!readOnly}
        nodesConnectable={!readOnly}
        deleteKeyCode={readOnly ? null : ['Delete', 'Backspace']}
        fitView
        fitViewOptions={{ maxZoom: 1 }}
        proOptions={{ hideAttribution: false }}
      >
        <Background />
        <Controls showInteractive={false} />
      </ReactFlow>
    </div>
  );
}
