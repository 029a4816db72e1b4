// The composer's segment builder: conditions on customer fields, consent, dates, lists, labels,
// consent topics and behaviour (received / opened / clicked a campaign, any or one, replied, has an
// open conversation), matched all or any, in groups nested up to SEGMENT_MAX_DEPTH deep (e.g. plan is
// pro AND (opened a campaign OR clicked one)), counted live by the server; saved as a segment that the
// campaign then sends to (its audience count still leaves out who gave no consent).
import {
  CONSENT_STATUSES,
  SEGMENT_MAX_DEPTH,
  type TSegmentBehaviourEvent,
  type TSegmentCondition,
  type TSegmentRuleOp,
  type TSegmentRuleTree,
  type TSegmentRules,
} from '@titan/contracts';
import { XIcon } from 'lucide-react';
import { useId, useState, type ReactNode } from 'react';
import { toast } from 'sonner';

import { FormAlert } from '../../../components/form/form-alert';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { NativeSelect } from '../../../components/ui/native-select';
import { apiErrorMessage, describeApiFailure } from '../../../lib/api-errors';
import { useCustomerListChoices } from '../../../lib/customer-lists';
import { useLabels } from '../../../lib/labels';
import { useCampaigns } from '../api/get-campaigns';
import { useConsentTopics } from '../api/get-topics';
import { useSegmentCount } from '../api/count-segment';
import { useSaveSegment } from '../api/save-segment';
import { COMPOSER_STRINGS } from '../strings';

const S = COMPOSER_STRINGS.segment;

type TSubject = keyof typeof S.subjects;
type TOpChoice = keyof typeof S.ops;
/** `campaign`: a behaviour row's campaign id ('' for any campaign). */
type TRow = { subject: TSubject; field: string; op: TOpChoice; value: string; campaign: string };

const BEHAVIOUR: readonly TSubject[] = ['received', 'opened', 'clicked', 'replied', 'open_conversation'];
const isBehaviour = (subject: TSubject): subject is TSegmentBehaviourEvent & TSubject =>
  BEHAVIOUR.includes(subject);

const TEXT_OPS: TOpChoice[] = ['eq', 'neq', 'contains', 'not_contains', 'exists', 'not_exists'];
const OPS: Record<TSubject, TOpChoice[]> = {
  'customer.name': TEXT_OPS,
  'customer.email': TEXT_OPS,
  'customer.phone': TEXT_OPS,
  'customer.email_status': ['eq', 'neq'],
  'customer.sms_status': ['eq', 'neq'],
  'customer.whatsapp_status': ['eq', 'neq'],
  'customer.created_at': ['within_days', 'not_within_days', 'date_gt', 'date_lt'],
  'customer.last_seen_at': ['within_days', 'not_within_days', 'date_gt', 'date_lt', 'not_exists'],
  field: [...TEXT_OPS, 'gt', 'lt'],
  list: ['in', 'not_in'],
  label: ['in', 'not_in'],
  topic: ['in', 'not_in'],
  received: ['within_days', 'not_within_days'],
  opened: ['within_days', 'not_within_days'],
  clicked: ['within_days', 'not_within_days'],
  replied: ['within_days', 'not_within_days'],
  open_conversation: ['has', 'has_not'],
};

const newRow = (): TRow => ({
  subject: 'customer.email',
  field: '',
  op: 'contains',
  value: '',
  campaign: '',
});

type TMatch = 'all' | 'any';
/** The builder's tree: rows and groups, each with an id for keys and edits. */
type TRuleNode = { kind: 'rule'; id: number; row: TRow };
type TGroupNode = { kind: 'group'; id: number; match: TMatch; items: TNode[] };
type TNode = TRuleNode | TGroupNode;

let lastNodeId = 0;
const nextId = () => ++lastNodeId;
const ruleNode = (): TRuleNode => ({ kind: 'rule', id: nextId(), row: newRow() });
const groupNode = (): TGroupNode => ({ kind: 'group', id: nextId(), match: 'any', items: [ruleNode()] });

/** The tree with the node `id` replaced by what `fn` makes of it (null removes it). */
function edit(group: TGroupNode, id: number, fn: (node: TNode) => TNode | null): TGroupNode {
  const items: TNode[] = [];
  for (const item of group.items) {
    const next = item.id === id ? fn(item) : item.kind === 'group' ? edit(item, id, fn) : item;
    if (next) items.push(next);
  }
  return { ...group, items };
}

/** A group as the API's rules, leaving out incomplete rows and groups left empty by them. */
function treeOf(group: TGroupNode): TSegmentRuleTree | null {
  const items = group.items
    .map((item) => (item.kind === 'rule' ? ruleOf(item.row) : treeOf(item)))
    .filter((x): x is TSegmentCondition | TSegmentRuleTree => x !== null);
  if (items.length === 0) return null;
  return group.match === 'all' ? { all: items } : { any: items };
}

/** Numbers for rows and nested groups, in the order they are shown (row labels count across groups). */
function numberNodes(group: TGroupNode): Map<number, number> {
  const numbers = new Map<number, number>();
  let rows = 0;
  let groups = 0;
  const walk = (g: TGroupNode) => {
    for (const item of g.items) {
      if (item.kind === 'rule') numbers.set(item.id, ++rows);
      else {
        numbers.set(item.id, ++groups);
        walk(item);
      }
    }
  };
  walk(group);
  return numbers;
}

const rowCount = (group: TGroupNode): number =>
  group.items.reduce((n, item) => n + (item.kind === 'rule' ? 1 : rowCount(item)), 0);

/** A behaviour row as the API's rule: `{event, campaign_id?, within_days, not?}`. */
function behaviourOf(row: TRow & { subject: TSegmentBehaviourEvent }): TSegmentCondition | null {
  const not = row.op === 'not_within_days' || row.op === 'has_not' ? { not: true } : {};
  if (row.subject === 'open_conversation') return { event: row.subject, ...not };
  const days = Number(row.value.trim());
  if (!row.value.trim() || !Number.isInteger(days) || days < 1) return null;
  return {
    event: row.subject,
    ...(row.campaign ? { campaign_id: row.campaign } : {}),
    within_days: days,
    ...not,
  };
}

/** A row as the API's rule, or null while it is incomplete. */
function ruleOf(row: TRow): TSegmentCondition | null {
  if (isBehaviour(row.subject)) return behaviourOf({ ...row, subject: row.subject });
  const op = (row.op === 'date_gt' ? 'gt' : row.op === 'date_lt' ? 'lt' : row.op) as TSegmentRuleOp;
  const field = row.subject === 'field' ? `customer.fields.${row.field.trim()}` : row.subject;
  if (row.subject === 'field' && !/^[A-Za-z0-9_][A-Za-z0-9_ .-]{0,63}$/.test(row.field.trim())) return null;
  if (op === 'exists' || op === 'not_exists') return { field, op };
  const value = row.value.trim();
  if (!value) return null;
  if (
    row.subject === 'list' ||
    row.subject === 'label' ||
    row.subject === 'topic' ||
    op.endsWith('within_days')
  ) {
    const n = Number(value);
    return Number.isInteger(n) && n > 0 ? { field, op, value: n } : null;
  }
  return { field, op, value };
}

function Cell({
  label,
  visible = false,
  children,
}: {
  label: string;
  visible?: boolean;
  children: (id: string) => ReactNode;
}) {
  const id = useId();
  return (
    <div className="grid min-w-0 gap-1">
      <Label htmlFor={id} className={visible ? undefined : 'sr-only'}>
        {label}
      </Label>
      {children(id)}
    </div>
  );
}

function ValueInput({ row, n, onChange }: { row: TRow; n: number; onChange: (value: string) => void }) {
  const lists = useCustomerListChoices('static');
  const labels = useLabels();
  const topics = useConsentTopics();
  if (row.op === 'exists' || row.op === 'not_exists' || row.subject === 'open_conversation') return null;
  if (isBehaviour(row.subject))
    return (
      <Cell label={S.days(n)}>
        {(id) => (
          <Input
            id={id}
            type="number"
            min={1}
            inputMode="numeric"
            placeholder="30"
            value={row.value}
            onChange={(e) => onChange(e.target.value)}
          />
        )}
      </Cell>
    );
  const choices =
    row.subject === 'list'
      ? (lists.data ?? []).map((l) => ({ id: l.id, name: l.name }))
      : row.subject === 'label'
        ? (labels.data ?? []).map((l) => ({ id: l.id, name: l.name }))
        : row.subject === 'topic'
          ? (topics.data ?? []).map((t) => ({ id: t.id, name: t.name }))
          : null;
  const consent = row.subject.endsWith('_status');
  return (
    <Cell label={S.value(n)}>
      {(id) =>
        choices || consent ? (
          <NativeSelect id={id} value={row.value} onChange={(e) => onChange(e.target.value)}>
            <option value="">{S.choose}</option>
            {choices
              ? choices.map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.name}
                  </option>
                ))
              : CONSENT_STATUSES.map((c) => (
                  <option key={c} value={c}>
                    {c}
                  </option>
                ))}
          </NativeSelect>
        ) : (
          <Input
            id={id}
            value={row.value}
            type={
              row.op === 'date_gt' || row.op === 'date_lt'
                ? 'date'
                : row.op.endsWith('within_days')
                  ? 'number'
                  : 'text'
            }
            min={row.op.endsWith('within_days') ? 1 : undefined}
            onChange={(e) => onChange(e.target.value)}
          />
        )
      }
    </Cell>
  );
}

/** A behaviour row's campaign: any, or one of the business's (the latest page of them). */
function CampaignInput({ row, n, onChange }: { row: TRow; n: number; onChange: (id: string) => void }) {
  const campaigns = useCampaigns(1);
  return (
    <Cell label={S.campaign(n)}>
      {(id) => (
        <NativeSelect id={id} value={row.campaign} onChange={(e) => onChange(e.target.value)}>
          <option value="">{S.anyCampaign}</option>
          {(campaigns.data?.results ?? []).map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </NativeSelect>
      )}
    </Cell>
  );
}

function ConditionRow({
  row,
  n,
  canRemove,
  onChange,
  onRemove,
}: {
  row: TRow;
  n: number;
  canRemove: boolean;
  onChange: (patch: Partial<TRow>) => void;
  onRemove: () => void;
}) {
  return (
    <li aria-label={S.condition(n)} className="grid gap-2 sm:grid-cols-[1fr_1fr_1fr_auto] sm:items-start">
      <Cell label={S.what(n)}>
        {(id) => (
          <NativeSelect
            id={id}
            value={row.subject}
            onChange={(e) => {
              const subject = e.target.value as TSubject;
              onChange({ subject, op: OPS[subject][0]!, value: '', campaign: '' });
            }}
          >
            {(Object.keys(S.subjects) as TSubject[]).map((s) => (
              <option key={s} value={s}>
                {S.subjects[s]}
              </option>
            ))}
          </NativeSelect>
        )}
      </Cell>
      {row.subject === 'field' ? (
        <Cell label={S.fieldName(n)}>
          {(id) => (
            <Input
              id={id}
              placeholder="plan"
              value={row.field}
              onChange={(e) => onChange({ field: e.target.value })}
            />
          )}
        </Cell>
      ) : null}
      {isBehaviour(row.subject) && row.subject !== 'open_conversation' ? (
        <CampaignInput row={row} n={n} onChange={(campaign) => onChange({ campaign })} />
      ) : null}
      <Cell label={S.op(n)}>
        {(id) => (
          <NativeSelect
            id={id}
            value={row.op}
            onChange={(e) => onChange({ op: e.target.value as TOpChoice })}
          >
            {OPS[row.subject].map((op) => (
              <option key={op} value={op}>
                {S.ops[op]}
              </option>
            ))}
          </NativeSelect>
        )}
      </Cell>
      <ValueInput row={row} n={n} onChange={(value) => onChange({ value })} />
      <Button variant="ghost" size="icon" aria-label={S.remove(n)} disabled={!canRemove} onClick={onRemove}>
        <XIcon aria-hidden="true" />
      </Button>
    </li>
  );
}

type TTreeEdits = {
  numbers: Map<number, number>;
  /** Only row left in the whole tree: it stays (an empty builder has nothing to edit). */
  lastRow: boolean;
  edit: (id: number, fn: (node: TNode) => TNode | null) => void;
};

/** A group's rows and nested groups; a nested group has its own match, additions and removal. */
function GroupItems({ group, depth, tree }: { group: TGroupNode; depth: number; tree: TTreeEdits }) {
  return (
    <ol className="grid gap-3">
      {group.items.map((item) => {
        const n = tree.numbers.get(item.id)!;
        if (item.kind === 'rule')
          return (
            <ConditionRow
              key={item.id}
              row={item.row}
              n={n}
              canRemove={!tree.lastRow}
              onChange={(patch) =>
                tree.edit(item.id, (node) => ({ ...node, row: { ...(node as TRuleNode).row, ...patch } }))
              }
              onRemove={() => tree.edit(item.id, () => null)}
            />
          );
        return (
          <li
            key={item.id}
            aria-label={S.group(n)}
            className="grid gap-3 rounded-md border border-dashed p-3"
          >
            <div className="flex flex-wrap items-center justify-between gap-2">
              <Cell label={S.groupMatch(n)}>
                {(id) => (
                  <NativeSelect
                    id={id}
                    className="w-auto"
                    value={item.match}
                    onChange={(e) =>
                      tree.edit(item.id, (node) => ({ ...node, match: e.target.value as TMatch }))
                    }
                  >
                    <option value="all">{S.matches.all}</option>
                    <option value="any">{S.matches.any}</option>
                  </NativeSelect>
                )}
              </Cell>
              <Button
                variant="ghost"
                size="sm"
                disabled={tree.lastRow && rowCount(item) > 0}
                onClick={() => tree.edit(item.id, () => null)}
              >
                <XIcon aria-hidden="true" />
                {S.removeGroup(n)}
              </Button>
            </div>
            <GroupItems group={item} depth={depth + 1} tree={tree} />
            <GroupActions
              depth={depth + 1}
              addLabel={S.addToGroup(n)}
              addGroupLabel={S.addGroupTo(n)}
              onAdd={(node) =>
                tree.edit(item.id, (g) => ({
                  ...(g as TGroupNode),
                  items: [...(g as TGroupNode).items, node],
                }))
              }
            />
          </li>
        );
      })}
    </ol>
  );
}

/** Add a condition, and a nested group while groups may go deeper. */
function GroupActions({
  depth,
  addLabel,
  addGroupLabel,
  onAdd,
}: {
  depth: number;
  addLabel: string;
  addGroupLabel: string;
  onAdd: (node: TNode) => void;
}) {
  return (
    <div className="flex flex-wrap gap-2">
      <Button variant="outline" size="sm" onClick={() => onAdd(ruleNode())}>
        {addLabel}
      </Button>
      {depth < SEGMENT_MAX_DEPTH ? (
        <Button variant="outline" size="sm" onClick={() => onAdd(groupNode())}>
          {addGroupLabel}
        </Button>
      ) : null}
    </div>
  );
}

export function SegmentBuilder({ onSaved }: { onSaved: (id: number) => void }) {
  const [root, setRoot] = useState<TGroupNode>(() => ({
    kind: 'group',
    id: nextId(),
    match: 'all',
    items: [ruleNode()],
  }));
  const [name, setName] = useState('');
  const [error, setError] = useState<string | undefined>();
  const save = useSaveSegment();
  const rules = treeOf(root) as TSegmentRules | null;
  const count = useSegmentCount(rules);
  const tree: TTreeEdits = {
    numbers: numberNodes(root),
    lastRow: rowCount(root) <= 1,
    edit: (id, fn) => setRoot((r) => edit(r, id, fn)),
  };

  const submit = () => {
    if (!rules) return;
    setError(undefined);
    save.mutate(
      { name: name.trim(), rules },
      {
        onSuccess: (list) => {
          toast.success(S.saved(list.name));
          onSaved(list.id);
        },
        onError: (err) => {
          const failure = describeApiFailure(err);
          const fields =
            failure.kind === 'response' && failure.fieldErrors
              ? Object.values(failure.fieldErrors).flat()
              : [];
          setError([apiErrorMessage(err, S.saveFailed), ...fields].join(' '));
        },
      },
    );
  };

  return (
    <section aria-label={S.title} className="grid gap-3 rounded-md border p-3">
      <h3 className="text-sm font-semibold">{S.title}</h3>
      <p className="text-xs text-muted-foreground">{S.hint}</p>
      <Cell label={S.match}>
        {(id) => (
          <div className="flex flex-wrap items-center gap-2 text-sm">
            <span aria-hidden="true">{S.match}</span>
            <NativeSelect
              id={id}
              className="w-auto"
              value={root.match}
              onChange={(e) => setRoot((r) => ({ ...r, match: e.target.value as TMatch }))}
            >
              <option value="all">{S.matches.all}</option>
              <option value="any">{S.matches.any}</option>
            </NativeSelect>
          </div>
        )}
      </Cell>
      <GroupItems group={root} depth={1} tree={tree} />
      <GroupActions
        depth={1}
        addLabel={S.add}
        addGroupLabel={S.addGroup}
        onAdd={(node) => setRoot((r) => ({ ...r, items: [...r.items, node] }))}
      />
      <p aria-live="polite" className="text-sm font-medium">
        {rules === null ? S.incomplete : count.data === undefined ? '…' : S.count(count.data)}
      </p>
      {count.isError ? <FormAlert message={apiErrorMessage(count.error)} /> : null}
      <div className="flex flex-wrap items-end gap-2">
        <Cell label={S.name} visible>
          {(id) => <Input id={id} value={name} onChange={(e) => setName(e.target.value)} />}
        </Cell>
        <Button disabled={!rules || !name.trim() || save.isPending} onClick={submit}>
          {S.save}
        </Button>
      </div>
      <FormAlert message={error} />
    </section>
  );
}
