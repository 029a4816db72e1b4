// The side panel of the selected step: its settings by type, where each way out leads ("Then"), and
// the server's errors on the field they name. Every control is a labelled form field, so a journey
// can be built with the keyboard alone (and on a phone, where the canvas is not shown).
import {
  JOURNEY_RULE_OPS,
  TITAN_CUSTOMER_EVENTS,
  type TJourneyNode,
  type TJourneyRule,
  type TWhatsappTemplate,
  unansweredEventName,
} from '@titan/contracts';
import { PlusIcon, Trash2Icon, XIcon } from 'lucide-react';
import { type ReactNode, useId } from 'react';

import { FieldShell } from '../../../components/form/field-shell';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { NativeSelect } from '../../../components/ui/native-select';
import { Textarea } from '../../../components/ui/textarea';
import { useAgentChoices } from '../../../lib/agent-choices';
import { useMembers } from '../../../lib/business/members';
import { useChatGroupChoices } from '../../../lib/chat-group-choices';
import { useCustomerListChoices } from '../../../lib/customer-lists';
import { useEmailTemplates } from '../../../lib/email-templates';
import { useLabels } from '../../../lib/labels';
import { useWhatsappTemplates } from '../../../lib/whatsapp/templates';
import { edgeOf, exitLabelText, exitSlots, fieldError, stepTitle, type TGraph } from '../graph';
import { PANEL_STRINGS as S } from '../strings';

type TProps = {
  node: TJourneyNode;
  graph: TGraph;
  errors: Record<string, string> | undefined;
  readOnly: boolean;
  onChange: (node: TJourneyNode) => void;
  onLink: (label: string | undefined, to: string | null) => void;
  onRemove: () => void;
};

const toInt = (v: string) => (v.trim() === '' ? 0 : Math.trunc(Number(v)));

export function StepPanel({ node, graph, errors, readOnly, onChange, onLink, onRemove }: TProps) {
  const err = (field: string) => fieldError(errors, field);
  const set = (config: Record<string, unknown>) => onChange({ ...node, config } as TJourneyNode);
  const targets = graph.nodes.filter((n) => n.id !== node.id && n.type !== 'trigger');

  return (
    <section aria-label={S.heading(stepTitle(node), node.id)} className="grid gap-4">
      <div className="flex items-center justify-between gap-2">
        <h2 className="text-base font-semibold break-all">{S.heading(stepTitle(node), node.id)}</h2>
        {!readOnly ? (
          <Button type="button" variant="ghost" size="sm" onClick={onRemove}>
            <Trash2Icon aria-hidden="true" />
            {S.remove}
          </Button>
        ) : null}
      </div>
      {err('type') ? <p className="text-sm text-destructive">{err('type')}</p> : null}
      <fieldset disabled={readOnly} className="grid gap-4">
        <ConfigFields node={node} err={err} set={set} />
        {exitSlots(node).map((label) => (
          <FieldShell
            key={label ?? 'next'}
            label={label === undefined ? S.then : S.thenOf(exitLabelText(label))}
            error={label === exitSlots(node)[0] ? err('edges') : undefined}
          >
            {(a11y) => (
              <NativeSelect
                {...a11y}
                value={edgeOf(graph, node.id, label)?.to ?? ''}
                onChange={(e) => onLink(label, e.target.value || null)}
              >
                <option value="">{S.nowhere}</option>
                {targets.map((t) => (
                  <option key={t.id} value={t.id}>
                    {`${stepTitle(t)} · ${t.id}`}
                  </option>
                ))}
              </NativeSelect>
            )}
          </FieldShell>
        ))}
      </fieldset>
    </section>
  );
}

/** Titan's own events offered as the name is typed; any other name (a posted event's) is typed freely. */
const SUGGESTED_EVENTS = [...TITAN_CUSTOMER_EVENTS, unansweredEventName(4), unansweredEventName(24)];

function EventField({
  value,
  error,
  onChange,
}: {
  value: string;
  error: string | undefined;
  onChange: (event: string) => void;
}) {
  const listId = useId();
  return (
    <FieldShell label={S.event} hint={S.eventHint} error={error}>
      {(a11y) => (
        <>
          <Input {...a11y} list={listId} value={value} onChange={(e) => onChange(e.target.value)} />
          <datalist id={listId}>
            {SUGGESTED_EVENTS.map((name) => (
              <option key={name} value={name} />
            ))}
          </datalist>
        </>
      )}
    </FieldShell>
  );
}

function ConfigFields({
  node,
  err,
  set,
}: {
  node: TJourneyNode;
  err: (field: string) => string | undefined;
  set: (config: Record<string, unknown>) => void;
}): ReactNode {
  switch (node.type) {
    case 'trigger': {
      const c = node.config;
      return (
        <>
          <FieldShell label={S.kind} error={err('config.kind')}>
            {(a11y) => (
              <NativeSelect
                {...a11y}
                value={c.kind}
                onChange={(e) =>
                  set(
                    e.target.value === 'event'
                      ? { kind: 'event', event: '' }
                      : e.target.value === 'segment'
                        ? { kind: 'segment', segment_id: 0 }
                        : { kind: 'date', field: 'birthday', local_time: '09:00' },
                  )
                }
              >
                {Object.entries(S.triggerKinds).map(([v, t]) => (
                  <option key={v} value={v}>
                    {t}
                  </option>
                ))}
              </NativeSelect>
            )}
          </FieldShell>
          {c.kind === 'event' ? (
            <EventField
              value={c.event}
              error={err('config.event')}
              onChange={(event) => set({ ...c, event })}
            />
          ) : c.kind === 'segment' ? (
            <FieldShell label={S.segmentId} error={err('config.segment_id')}>
              {(a11y) => (
                <Input
                  {...a11y}
                  inputMode="numeric"
                  value={c.segment_id || ''}
                  onChange={(e) => set({ ...c, segment_id: toInt(e.target.value) })}
                />
              )}
            </FieldShell>
          ) : (
            <>
              <FieldShell label={S.dateField} error={err('config.field')}>
                {(a11y) => (
                  <Input {...a11y} value={c.field} onChange={(e) => set({ ...c, field: e.target.value })} />
                )}
              </FieldShell>
              <FieldShell label={S.localTime} error={err('config.local_time')}>
                {(a11y) => (
                  <Input
                    {...a11y}
                    value={c.local_time}
                    onChange={(e) => set({ ...c, local_time: e.target.value })}
                  />
                )}
              </FieldShell>
            </>
          )}
        </>
      );
    }
    case 'wait': {
      const c = node.config;
      return (
        <>
          <FieldShell label={S.kind} error={err('config.kind')}>
            {(a11y) => (
              <NativeSelect
                {...a11y}
                value={c.kind}
                onChange={(e) =>
                  set(
                    e.target.value === 'duration'
                      ? { kind: 'duration', seconds: 3600 }
                      : e.target.value === 'until_event'
                        ? { kind: 'until_event', event: '', timeout_seconds: 172_800 }
                        : { kind: 'until_time', local_time: '09:00' },
                  )
                }
              >
                {Object.entries(S.waitKinds).map(([v, t]) => (
                  <option key={v} value={v}>
                    {t}
                  </option>
                ))}
              </NativeSelect>
            )}
          </FieldShell>
          {c.kind === 'duration' ? (
            <FieldShell label={S.seconds} error={err('config.seconds')}>
              {(a11y) => (
                <Input
                  {...a11y}
                  inputMode="numeric"
                  value={String(c.seconds)}
                  onChange={(e) => set({ ...c, seconds: toInt(e.target.value) })}
                />
              )}
            </FieldShell>
          ) : c.kind === 'until_event' ? (
            <>
              <EventField
                value={c.event}
                error={err('config.event')}
                onChange={(event) => set({ ...c, event })}
              />
              <FieldShell label={S.timeoutSeconds} error={err('config.timeout_seconds')}>
                {(a11y) => (
                  <Input
                    {...a11y}
                    inputMode="numeric"
                    value={String(c.timeout_seconds)}
                    onChange={(e) => set({ ...c, timeout_seconds: toInt(e.target.value) })}
                  />
                )}
              </FieldShell>
            </>
          ) : (
            <FieldShell label={S.localTime} error={err('config.local_time')}>
              {(a11y) => (
                <Input
                  {...a11y}
                  value={c.local_time}
                  onChange={(e) => set({ ...c, local_time: e.target.value })}
                />
              )}
            </FieldShell>
          )}
        </>
      );
    }
    case 'branch': {
      const c = node.config;
      return (
        <>
          <FieldShell label={S.kind} error={err('config.kind')}>
            {(a11y) => (
              <NativeSelect
                {...a11y}
                value={c.kind}
                onChange={(e) =>
                  set(
                    e.target.value === 'condition'
                      ? {
                          kind: 'condition',
                          rules: [{ field: 'event.properties.plan', op: 'eq', value: '' }],
                        }
                      : { kind: 'split', weights: [50, 50] },
                  )
                }
              >
                {Object.entries(S.branchKinds).map(([v, t]) => (
                  <option key={v} value={v}>
                    {t}
                  </option>
                ))}
              </NativeSelect>
            )}
          </FieldShell>
          {c.kind === 'condition' ? (
            <RulesFields rules={c.rules} err={err} onChange={(rules) => set({ ...c, rules })} />
          ) : (
            <FieldShell label={S.weights} error={err('config.weights')}>
              {(a11y) => (
                <Input
                  {...a11y}
                  defaultValue={c.weights.join(', ')}
                  onBlur={(e) =>
                    set({
                      ...c,
                      weights: e.target.value
                        .split(',')
                        .map((w) => w.trim())
                        .filter(Boolean)
                        .map(toInt),
                    })
                  }
                />
              )}
            </FieldShell>
          )}
        </>
      );
    }
    case 'send':
      return <SendFields config={node.config} err={err} set={set} />;
    case 'agent':
      return <AgentFields config={node.config} err={err} set={set} />;
    case 'update':
      return <UpdateFields config={node.config} err={err} set={set} />;
    case 'conversation':
      return <ConversationFields config={node.config} err={err} set={set} />;
    case 'webhook':
      return (
        <>
          <p className="text-sm text-muted-foreground">{S.webhookText}</p>
          <FieldShell label={S.webhookUrl} error={err('config.url')}>
            {(a11y) => (
              <Input
                {...a11y}
                type="url"
                value={node.config.url}
                onChange={(e) => set({ url: e.target.value })}
              />
            )}
          </FieldShell>
        </>
      );
    case 'exit':
      return <p className="text-sm text-muted-foreground">{S.exitText}</p>;
    default:
      return null;
  }
}

function RulesFields({
  rules,
  err,
  onChange,
}: {
  rules: TJourneyRule[];
  err: (field: string) => string | undefined;
  onChange: (rules: TJourneyRule[]) => void;
}) {
  const update = (i: number, rule: TJourneyRule) => onChange(rules.map((r, j) => (j === i ? rule : r)));
  return (
    <div className="grid gap-3">
      {rules.map((rule, i) => (
        <fieldset key={i} className="grid gap-2 rounded-md border p-3">
          <legend className="px-1 text-xs text-muted-foreground">{`${i + 1}`}</legend>
          <FieldShell
            label={S.ruleField}
            hint={i === 0 ? S.ruleFieldHint : undefined}
            error={err(`config.rules.${i}.field`)}
          >
            {(a11y) => (
              <Input
                {...a11y}
                value={rule.field}
                onChange={(e) => update(i, { ...rule, field: e.target.value })}
              />
            )}
          </FieldShell>
          <FieldShell label={S.ruleOp} error={err(`config.rules.${i}.op`)}>
            {(a11y) => (
              <NativeSelect
                {...a11y}
                value={rule.op}
                onChange={(e) => update(i, { ...rule, op: e.target.value as TJourneyRule['op'] })}
              >
                {JOURNEY_RULE_OPS.map((op) => (
                  <option key={op} value={op}>
                    {op}
                  </option>
                ))}
              </NativeSelect>
            )}
          </FieldShell>
          {rule.op !== 'exists' && rule.op !== 'not_exists' ? (
            <FieldShell label={S.ruleValue} error={err(`config.rules.${i}.value`)}>
              {(a11y) => (
                <Input
                  {...a11y}
                  value={rule.value === undefined ? '' : String(rule.value)}
                  onChange={(e) => update(i, { ...rule, value: e.target.value })}
                />
              )}
            </FieldShell>
          ) : null}
          {rules.length > 1 ? (
            <Button
              type="button"
              variant="ghost"
              size="sm"
              onClick={() => onChange(rules.filter((_, j) => j !== i))}
            >
              <XIcon aria-hidden="true" />
              {S.removeRule}
            </Button>
          ) : null}
        </fieldset>
      ))}
      <Button
        type="button"
        variant="outline"
        size="sm"
        onClick={() => onChange([...rules, { field: 'customer.fields.', op: 'exists' }])}
      >
        <PlusIcon aria-hidden="true" />
        {S.addRule}
      </Button>
    </div>
  );
}

type TSend = Extract<TJourneyNode, { type: 'send' }>['config'];
function SendFields({
  config: c,
  err,
  set,
}: {
  config: TSend;
  err: (field: string) => string | undefined;
  set: (config: Record<string, unknown>) => void;
}) {
  const templates = useEmailTemplates();
  const patch = (p: Partial<TSend>) => {
    const next: Record<string, unknown> = { ...c, ...p };
    for (const [k, v] of Object.entries(next)) if (v === undefined || v === '') delete next[k];
    set(next);
  };
  return (
    <>
      <FieldShell label={S.channel} error={err('config.channel')}>
        {(a11y) => (
          <NativeSelect
            {...a11y}
            value={c.channel}
            onChange={(e) => set({ channel: e.target.value, consent: c.consent ?? 'subscribed' })}
          >
            {(['email', 'sms', 'whatsapp'] as const).map((ch) => (
              <option key={ch} value={ch}>
                {S.channels[ch]}
              </option>
            ))}
          </NativeSelect>
        )}
      </FieldShell>
      {c.channel === 'email' ? (
        <>
          <FieldShell label={S.template} error={err('config.template_id')}>
            {(a11y) => (
              <NativeSelect
                {...a11y}
                value={c.template_id ? String(c.template_id) : ''}
                onChange={(e) => patch({ template_id: e.target.value ? Number(e.target.value) : undefined })}
              >
                <option value="">{S.noTemplate}</option>
                {(templates.data ?? []).map((t) => (
                  <option key={t.id} value={t.id}>
                    {t.name}
                  </option>
                ))}
              </NativeSelect>
            )}
          </FieldShell>
          <FieldShell label={S.from} error={err('config.from')}>
            {(a11y) => (
              <Input
                {...a11y}
                type="email"
                value={c.from ?? ''}
                onChange={(e) => patch({ from: e.target.value })}
              />
            )}
          </FieldShell>
        </>
      ) : c.channel === 'whatsapp' ? (
        <WhatsappFields config={c} err={err} patch={patch} />
      ) : (
        <FieldShell label={S.body} error={err('config.body') ?? err('config.template_id')}>
          {(a11y) => (
            <Textarea {...a11y} value={c.body ?? ''} onChange={(e) => patch({ body: e.target.value })} />
          )}
        </FieldShell>
      )}
      <FieldShell label={S.consent} error={err('config.consent')}>
        {(a11y) => (
          <NativeSelect
            {...a11y}
            value={c.consent ?? 'subscribed'}
            onChange={(e) => patch({ consent: e.target.value as TSend['consent'] })}
          >
            {Object.entries(S.consents).map(([v, t]) => (
              <option key={v} value={v}>
                {t}
              </option>
            ))}
          </NativeSelect>
        )}
      </FieldShell>
    </>
  );
}

/** The variables a WhatsApp template takes, keyed as the send step's `variables` key them. */
function variableKeys(t: TWhatsappTemplate): string[] {
  return [
    ...(t.header_format === 'TEXT' ? t.header_parameter_names.map((n) => `header.${n}`) : []),
    ...t.body_parameter_names,
    ...t.button_parameters.map((b) => `button.${b.index}`),
  ];
}

/** A WhatsApp step: one of the business's approved templates, each of its variables filled per customer. */
function WhatsappFields({
  config: c,
  err,
  patch,
}: {
  config: TSend;
  err: (field: string) => string | undefined;
  patch: (p: Partial<TSend>) => void;
}) {
  const templates = useWhatsappTemplates({ status: 'APPROVED' });
  const chosen = c.whatsapp_template;
  const keyOf = (t: { name: string; language: string }) => `${t.name}|${t.language}`;
  const template = (templates.data ?? []).find((t) => chosen && keyOf(t) === keyOf(chosen));
  const variables = chosen?.variables ?? {};
  return (
    <>
      <FieldShell
        label={S.whatsappTemplate}
        hint={templates.data && templates.data.length === 0 ? S.noWhatsappTemplates : undefined}
        error={err('config.whatsapp_template')}
      >
        {(a11y) => (
          <NativeSelect
            {...a11y}
            value={chosen ? keyOf(chosen) : ''}
            onChange={(e) => {
              const t = (templates.data ?? []).find((x) => keyOf(x) === e.target.value);
              patch({ whatsapp_template: t ? { name: t.name, language: t.language } : undefined });
            }}
          >
            <option value="">{S.noTemplate}</option>
            {chosen && !template ? (
              <option value={keyOf(chosen)}>{`${chosen.name} (${chosen.language})`}</option>
            ) : null}
            {(templates.data ?? []).map((t) => (
              <option key={keyOf(t)} value={keyOf(t)}>
                {`${t.name} (${t.language})`}
              </option>
            ))}
          </NativeSelect>
        )}
      </FieldShell>
      {template && chosen
        ? variableKeys(template).map((key) => (
            <FieldShell
              key={key}
              label={S.whatsappVariable(key)}
              hint={S.whatsappVariableHint}
              error={err(`config.whatsapp_template.variables.${key}`)}
            >
              {(a11y) => (
                <Input
                  {...a11y}
                  value={variables[key] ?? ''}
                  onChange={(e) => {
                    const next = { ...variables, [key]: e.target.value };
                    if (!e.target.value) delete next[key];
                    patch({ whatsapp_template: { ...chosen, variables: next } });
                  }}
                />
              )}
            </FieldShell>
          ))
        : null}
    </>
  );
}

type TAgentStep = Extract<TJourneyNode, { type: 'agent' }>['config'];
/**
 * An agent step: one of the business's agents (a paused or archived one said so) and which of its
 * channels the run uses. Choosing an agent names its first channel; a step saved without one (older
 * journeys) runs on the agent's first, which the channel picker shows as chosen.
 */
function AgentFields({
  config: c,
  err,
  set,
}: {
  config: TAgentStep;
  err: (field: string) => string | undefined;
  set: (config: Record<string, unknown>) => void;
}) {
  const agentId = c.agent_id;
  const agents = useAgentChoices();
  const chosen = (agents.data ?? []).find((a) => a.id === agentId);
  const known = chosen !== undefined;
  const channels = chosen?.channels ?? [];
  const channel = c.channel ?? channels[0];
  return (
    <>
      <p className="text-sm text-muted-foreground">{S.agentText}</p>
      <FieldShell
        label={S.agent}
        hint={agents.data && agents.data.length === 0 ? S.noAgents : undefined}
        error={err('config.agent_id')}
      >
        {(a11y) => (
          <NativeSelect
            {...a11y}
            value={agentId ? String(agentId) : ''}
            onChange={(e) => {
              const id = e.target.value ? Number(e.target.value) : 0;
              const first = (agents.data ?? []).find((a) => a.id === id)?.channels[0];
              set(first ? { agent_id: id, channel: first } : { agent_id: id });
            }}
          >
            <option value="">{S.noAgent}</option>
            {agentId && !known ? <option value={agentId}>{`#${agentId}`}</option> : null}
            {(agents.data ?? []).map((a) => (
              <option key={a.id} value={a.id}>
                {`${a.name}${S.agentStatus[a.status] ?? ''}`}
              </option>
            ))}
          </NativeSelect>
        )}
      </FieldShell>
      {agentId ? (
        <FieldShell label={S.agentChannel} hint={S.agentChannelHint} error={err('config.channel')}>
          {(a11y) => (
            <NativeSelect
              {...a11y}
              value={channel ?? ''}
              onChange={(e) =>
                set({ agent_id: agentId, ...(e.target.value ? { channel: e.target.value } : {}) })
              }
            >
              {channel && !channels.includes(channel) ? (
                <option value={channel}>{S.agentChannelGone(channel)}</option>
              ) : null}
              {channels.length === 0 && !channel ? <option value="">{S.agentNoChannels}</option> : null}
              {channels.map((ch) => (
                <option key={ch} value={ch}>
                  {S.channels[ch]}
                </option>
              ))}
            </NativeSelect>
          )}
        </FieldShell>
      ) : null}
    </>
  );
}

type TConversation = Extract<TJourneyNode, { type: 'conversation' }>['config'];
function ConversationFields({
  config: c,
  err,
  set,
}: {
  config: TConversation;
  err: (field: string) => string | undefined;
  set: (config: Record<string, unknown>) => void;
}) {
  const groups = useChatGroupChoices();
  const members = useMembers();
  const patch = (key: keyof TConversation, value: string) => {
    const next: Record<string, unknown> = { ...c };
    if (value) next[key] = Number(value);
    else delete next[key];
    set(next);
  };
  return (
    <>
      <p className="text-sm text-muted-foreground">{S.conversationText}</p>
      <FieldShell label={S.chatGroup} error={err('config.chat_group_id')}>
        {(a11y) => (
          <NativeSelect
            {...a11y}
            value={c.chat_group_id ? String(c.chat_group_id) : ''}
            onChange={(e) => patch('chat_group_id', e.target.value)}
          >
            <option value="">{S.anyGroup}</option>
            {(groups.data ?? []).map((g) => (
              <option key={g.id} value={g.id}>
                {g.name}
              </option>
            ))}
          </NativeSelect>
        )}
      </FieldShell>
      <FieldShell label={S.assignee} error={err('config.assignee_id')}>
        {(a11y) => (
          <NativeSelect
            {...a11y}
            value={c.assignee_id ? String(c.assignee_id) : ''}
            onChange={(e) => patch('assignee_id', e.target.value)}
          >
            <option value="">{S.nobody}</option>
            {(members.data ?? []).map((m) => (
              <option key={m.user.pk} value={m.user.pk}>
                {`${m.user.first_name} ${m.user.last_name}`.trim() || m.user.email}
              </option>
            ))}
          </NativeSelect>
        )}
      </FieldShell>
    </>
  );
}

type TUpdate = Extract<TJourneyNode, { type: 'update' }>['config'];
function UpdateFields({
  config: c,
  err,
  set,
}: {
  config: TUpdate;
  err: (field: string) => string | undefined;
  set: (config: Record<string, unknown>) => void;
}) {
  const lists = useCustomerListChoices('static');
  const labels = useLabels();
  const patch = (p: Partial<TUpdate>) => {
    const next: Record<string, unknown> = { ...c, ...p };
    for (const [k, v] of Object.entries(next))
      if (v === undefined || (Array.isArray(v) && v.length === 0)) delete next[k];
    set(next);
  };
  const one = (ids: number[] | undefined) => (ids?.[0] ? String(ids[0]) : '');
  const pick = (v: string) => (v ? [Number(v)] : undefined);
  return (
    <>
      <FieldShell label={S.fields} error={err('config.fields')}>
        {(a11y) => (
          <Textarea
            {...a11y}
            defaultValue={Object.entries(c.fields ?? {})
              .map(([k, v]) => `${k}=${String(v)}`)
              .join('\n')}
            onBlur={(e) => {
              const fields: Record<string, string> = {};
              for (const line of e.target.value.split('\n')) {
                const at = line.indexOf('=');
                if (at > 0) fields[line.slice(0, at).trim()] = line.slice(at + 1).trim();
              }
              patch({ fields });
            }}
          />
        )}
      </FieldShell>
      {(
        [
          ['add_list_ids', S.addLists, lists.data ?? []],
          ['remove_list_ids', S.removeLists, lists.data ?? []],
          ['add_label_ids', S.addLabels, labels.data ?? []],
        ] as const
      ).map(([key, label, choices]) => (
        <FieldShell key={key} label={label} error={err(`config.${key}`)}>
          {(a11y) => (
            <NativeSelect
              {...a11y}
              value={one(c[key])}
              onChange={(e) => patch({ [key]: pick(e.target.value) })}
            >
              <option value="">{S.none}</option>
              {choices.map((x) => (
                <option key={x.id} value={x.id}>
                  {x.name}
                </option>
              ))}
            </NativeSelect>
          )}
        </FieldShell>
      ))}
    </>
  );
}
