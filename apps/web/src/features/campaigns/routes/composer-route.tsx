// /engage/campaigns/new and /engage/campaigns/{id}/edit: the composer, a wizard of four steps —
// audience (lists, segments, exclusions, counted live with the suppressed and those without consent
// apart), content (a template or written in place, an A/B test of the subject), schedule (now, at a
// time, at each recipient's local time; a throttle) and review (the checklist, a test send, then
// schedule). "Send to…" on a list or a template opens it prefilled (?list_id=, ?template_id=, an
// approved WhatsApp template by ?channel=whatsapp&wa_template=&wa_language=).
// WhatsApp: an approved template with its variables mapped to customer fields, its media header's
// file, and a preview; the review shows Meta's pricing category.
import type { TCampaign, TCampaignChannel, TCreateCampaignRequest } from '@titan/contracts';
import { CheckCircle2Icon, CircleAlertIcon } from 'lucide-react';
import { useId, useState, type ReactNode } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { toast } from 'sonner';

import { FormAlert } from '../../../components/form/form-alert';
import { PageLayout } from '../../../components/layout/page-layout';
import { SectionError, SectionLoading } from '../../../components/load-state';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { NativeSelect } from '../../../components/ui/native-select';
import { Textarea } from '../../../components/ui/textarea';
import { campaignPath } from '../../../config/paths';
import { apiErrorMessage, describeApiFailure } from '../../../lib/api-errors';
import { useCustomerListChoices } from '../../../lib/customer-lists';
import { useEmailTemplates } from '../../../lib/email-templates';
import { runCampaignAction } from '../api/campaign-action';
import { useAudienceCount } from '../api/count-audience';
import { useCampaign } from '../api/get-campaign';
import { useConsentTopics } from '../api/get-topics';
import { useChecklist } from '../api/get-checklist';
import { useSaveCampaign } from '../api/save-campaign';
import { useTestCampaign } from '../api/test-campaign';
import { SegmentBuilder } from '../components/segment-builder';
import { WhatsappContent } from '../components/whatsapp-content';
import { EMPTY_WHATSAPP, type TWhatsappDraft } from '../components/whatsapp-draft';
import { CAMPAIGNS_STRINGS, COMPOSER_STRINGS as S } from '../strings';

type TDraft = {
  name: string;
  channel: TCampaignChannel;
  listIds: number[];
  excludeIds: number[];
  topicId: number | null;
  templateId: number | null;
  subject: string;
  html: string;
  text: string;
  body: string;
  whatsapp: TWhatsappDraft;
  sender: string;
  abOn: boolean;
  variants: string[];
  testShare: number;
  metric: 'opens' | 'clicks';
  wait: number;
  mode: 'now' | 'at' | 'local';
  at: string;
  day: string;
  localTime: string;
  throttle: string;
};

const EMPTY: TDraft = {
  name: '',
  channel: 'email',
  listIds: [],
  excludeIds: [],
  topicId: null,
  templateId: null,
  subject: '',
  html: '',
  text: '',
  body: '',
  whatsapp: EMPTY_WHATSAPP,
  sender: '',
  abOn: false,
  variants: ['', ''],
  testShare: 20,
  metric: 'opens',
  wait: 60,
  mode: 'now',
  at: '',
  day: '',
  localTime: '09:00',
  throttle: '',
};

function fromCampaign(c: TCampaign): TDraft {
  return {
    name: c.name,
    channel: c.channel,
    listIds: [...c.audience.list_ids, ...c.audience.segment_ids],
    excludeIds: c.audience.exclude_list_ids,
    topicId: c.audience.topic_id ?? null,
    templateId: c.content.template_id ?? null,
    subject: c.content.subject ?? '',
    html: c.content.html ?? '',
    text: c.content.text ?? '',
    body: c.content.body ?? '',
    whatsapp: c.content.whatsapp_template
      ? { header_media: null, ...c.content.whatsapp_template }
      : EMPTY_WHATSAPP,
    sender: c.sender ?? '',
    abOn: c.ab !== null,
    variants: c.ab ? c.ab.variants.map((v) => v.subject ?? '') : ['', ''],
    testShare: c.ab ? Math.round(c.ab.test_share * 100) : 20,
    metric: c.ab?.metric ?? 'opens',
    wait: c.ab?.wait_minutes ?? 60,
    mode: c.schedule.mode,
    at: c.schedule.mode === 'at' ? (c.schedule.at ?? '') : '',
    day: c.schedule.mode === 'local' ? (c.schedule.at ?? '') : '',
    localTime: c.schedule.local_time ?? '09:00',
    throttle: c.throttle_per_hour ? String(c.throttle_per_hour) : '',
  };
}

function toRequest(d: TDraft, segmentIds: Set<number>): TCreateCampaignRequest {
  const content: TCreateCampaignRequest['content'] =
    d.channel === 'email'
      ? d.templateId
        ? { template_id: d.templateId }
        : { subject: d.subject, html: d.html, ...(d.text.trim() ? { text: d.text } : {}) }
      : d.channel === 'whatsapp'
        ? { whatsapp_template: d.whatsapp }
        : { body: d.body };
  return {
    name: d.name.trim() || 'Untitled campaign',
    channel: d.channel,
    audience: {
      list_ids: d.listIds.filter((id) => !segmentIds.has(id)),
      segment_ids: d.listIds.filter((id) => segmentIds.has(id)),
      exclude_list_ids: d.excludeIds,
      topic_id: d.topicId,
    },
    content,
    sender: d.channel === 'email' && d.sender.trim() ? d.sender.trim() : null,
    schedule:
      d.mode === 'now'
        ? { mode: 'now' }
        : d.mode === 'at'
          ? { mode: 'at', at: d.at }
          : { mode: 'local', local_time: d.localTime, ...(d.day ? { at: d.day } : {}) },
    throttle_per_hour: d.throttle.trim() ? Number(d.throttle) : null,
    ab:
      d.abOn && d.channel === 'email' && !d.templateId
        ? {
            variants: d.variants.map((subject) => ({ subject })),
            test_share: Math.min(100, Math.max(1, d.testShare)) / 100,
            metric: d.metric,
            wait_minutes: Math.max(1, d.wait),
          }
        : null,
  };
}

function Field({
  label,
  hint,
  children,
}: {
  label: string;
  hint?: string;
  children: (id: string) => ReactNode;
}) {
  const id = useId();
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>{label}</Label>
      {children(id)}
      {hint ? <p className="text-xs text-muted-foreground">{hint}</p> : null}
    </div>
  );
}

function Checks({
  legend,
  options,
  chosen,
  onChange,
}: {
  legend: string;
  options: { id: number; label: string }[];
  chosen: number[];
  onChange: (ids: number[]) => void;
}) {
  return (
    <fieldset className="grid gap-2">
      <legend className="mb-1 text-sm font-medium">{legend}</legend>
      {options.length === 0 ? <p className="text-sm text-muted-foreground">{S.noLists}</p> : null}
      {options.map((o) => (
        <label key={o.id} className="flex min-w-0 items-center gap-2 text-sm">
          <input
            type="checkbox"
            className="size-4 shrink-0"
            checked={chosen.includes(o.id)}
            onChange={(e) =>
              onChange(e.target.checked ? [...chosen, o.id] : chosen.filter((x) => x !== o.id))
            }
          />
          <span className="min-w-0 break-words">{o.label}</span>
        </label>
      ))}
    </fieldset>
  );
}

/**
 * The audience counted live, once the list choices have loaded (`ready`): until then a segment
 * opened from its "Send to…" could not be told from a static list.
 */
function AudienceCount({
  draft,
  segmentIds,
  ready,
}: {
  draft: TDraft;
  segmentIds: Set<number>;
  ready: boolean;
}) {
  const request = toRequest(draft, segmentIds);
  const count = useAudienceCount(draft.channel, request.audience, ready);
  if (draft.listIds.length === 0) return <p className="text-sm text-muted-foreground">{S.count.pick}</p>;
  if (!count.data) return <p className="text-sm text-muted-foreground">…</p>;
  const c = count.data;
  return (
    <div aria-live="polite" className="grid gap-1 rounded-md border p-3 text-sm">
      <p className="font-medium">{S.count.reachable(c.reachable)}</p>
      <p className="text-muted-foreground">
        {[
          S.count.suppressed(c.suppressed),
          S.count.noConsent(c.no_consent),
          S.count.noAddress(c.no_address),
          ...(draft.topicId ? [S.count.outOfTopic(c.out_of_topic)] : []),
        ].join(' · ')}
      </p>
    </div>
  );
}

function Review({ id, onScheduled }: { id: string; onScheduled: () => void }) {
  const checklist = useChecklist(id, true);
  const test = useTestCampaign(id);
  const [to, setTo] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const schedule = async () => {
    setBusy(true);
    setError(undefined);
    try {
      await runCampaignAction(id, 'schedule');
      onScheduled();
    } catch (err) {
      const failure = describeApiFailure(err);
      const fields =
        failure.kind === 'response' && failure.fieldErrors ? Object.values(failure.fieldErrors).flat() : [];
      setError([apiErrorMessage(err, S.saveFailed), ...fields].join(' '));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="grid gap-6">
      <section className="grid gap-3" aria-labelledby={`${id}-checklist`}>
        <h2 id={`${id}-checklist`} className="text-lg font-semibold">
          {S.checklist}
        </h2>
        {checklist.isPending ? <SectionLoading /> : null}
        {checklist.isError ? (
          <SectionError error={checklist.error} onRetry={() => void checklist.refetch()} />
        ) : null}
        {checklist.data ? (
          <ul className="grid gap-2">
            {checklist.data.items.map((item) => (
              <li key={item.key} className="flex min-w-0 items-start gap-2 text-sm">
                {item.ok ? (
                  <CheckCircle2Icon aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-emerald-600" />
                ) : (
                  <CircleAlertIcon aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-destructive" />
                )}
                <span className="min-w-0 break-words">
                  <span className="font-medium">{CHECK_LABELS[item.key]}</span>
                  {item.detail ? ` — ${item.detail}` : ''}
                </span>
              </li>
            ))}
          </ul>
        ) : null}
        {checklist.data?.estimated_cost ? (
          <p className="text-sm text-muted-foreground">{S.pricing(checklist.data.estimated_cost.category)}</p>
        ) : null}
      </section>
      <section className="grid gap-3" aria-labelledby={`${id}-test`}>
        <h2 id={`${id}-test`} className="text-lg font-semibold">
          {S.testTitle}
        </h2>
        <Field label={S.testTo}>
          {(fid) => <Input id={fid} value={to} onChange={(e) => setTo(e.target.value)} />}
        </Field>
        <div>
          <Button
            variant="outline"
            disabled={test.isPending || !to.trim()}
            onClick={() =>
              test.mutate(
                to
                  .split(',')
                  .map((s) => s.trim())
                  .filter(Boolean),
                {
                  onSuccess: (r) => toast.success(S.testSent(r.send_ids.length)),
                  onError: (err) => toast.error(apiErrorMessage(err)),
                },
              )
            }
          >
            {S.sendTest}
          </Button>
        </div>
      </section>
      <FormAlert message={error} />
      <div>
        <Button disabled={busy || checklist.data?.ready === false} onClick={() => void schedule()}>
          {S.schedule_}
        </Button>
      </div>
    </div>
  );
}

const CHECK_LABELS: Record<string, string> = {
  audience: 'Audience',
  sender: 'Sender',
  domain_verified: 'Domain verified',
  unsubscribe: 'Unsubscribe link',
  quota: 'Quota',
  content: 'Content',
};

function Composer({ initial, campaignId }: { initial: TDraft; campaignId: string | null }) {
  const [draft, setDraft] = useState(initial);
  const [step, setStep] = useState(0);
  const [savedId, setSavedId] = useState(campaignId);
  const [building, setBuilding] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const lists = useCustomerListChoices();
  const templates = useEmailTemplates();
  const topics = useConsentTopics();
  const save = useSaveCampaign(savedId);
  const navigate = useNavigate();
  const set = <K extends keyof TDraft>(key: K, value: TDraft[K]) => setDraft((d) => ({ ...d, [key]: value }));
  const segmentIds = new Set((lists.data ?? []).filter((l) => l.kind === 'segment').map((l) => l.id));
  const listOptions = (lists.data ?? []).map((l) => ({
    id: l.id,
    label: `${l.name} (${l.kind === 'segment' ? 'segment' : 'list'}, ${l.member_count.toLocaleString('en-US')})`,
  }));

  const saveDraft = async (): Promise<string | null> => {
    setError(undefined);
    try {
      const saved = await save.mutateAsync(toRequest(draft, segmentIds));
      setSavedId(saved.id);
      return saved.id;
    } catch (err) {
      const failure = describeApiFailure(err);
      const fields =
        failure.kind === 'response' && failure.fieldErrors
          ? Object.entries(failure.fieldErrors).map(([k, v]) => `${k}: ${v.join(' ')}`)
          : [];
      setError([apiErrorMessage(err, S.saveFailed), ...fields].join(' '));
      return null;
    }
  };

  const next = async () => {
    if (step === 2) {
      if (!(await saveDraft())) return;
    }
    setStep((s) => Math.min(3, s + 1));
  };

  const steps = [
    <div key="audience" className="grid gap-4">
      <Field label={S.name}>
        {(id) => <Input id={id} value={draft.name} onChange={(e) => set('name', e.target.value)} />}
      </Field>
      <Field label={S.channel}>
        {(id) => (
          <NativeSelect
            id={id}
            value={draft.channel}
            onChange={(e) => set('channel', e.target.value as TCampaignChannel)}
          >
            <option value="email">{CAMPAIGNS_STRINGS.channels.email}</option>
            <option value="sms">{CAMPAIGNS_STRINGS.channels.sms}</option>
            <option value="whatsapp">{CAMPAIGNS_STRINGS.channels.whatsapp}</option>
          </NativeSelect>
        )}
      </Field>
      <Checks
        legend={S.lists}
        options={listOptions}
        chosen={draft.listIds}
        onChange={(v) => set('listIds', v)}
      />
      <div>
        <Button variant="outline" size="sm" aria-expanded={building} onClick={() => setBuilding((b) => !b)}>
          {building ? S.segment.close : S.segment.open}
        </Button>
      </div>
      {building ? (
        <SegmentBuilder
          onSaved={(id) => {
            setDraft((d) => ({ ...d, listIds: [...d.listIds, id] }));
            setBuilding(false);
          }}
        />
      ) : null}
      <Checks
        legend={S.exclude}
        options={listOptions}
        chosen={draft.excludeIds}
        onChange={(v) => set('excludeIds', v)}
      />
      {(topics.data ?? []).length > 0 ? (
        <Field label={S.topic} hint={S.topicHint}>
          {(id) => (
            <NativeSelect
              id={id}
              value={draft.topicId ?? ''}
              onChange={(e) => set('topicId', e.target.value ? Number(e.target.value) : null)}
            >
              <option value="">{S.noTopic}</option>
              {(topics.data ?? []).map((t) => (
                <option key={t.id} value={t.id}>
                  {t.name}
                </option>
              ))}
            </NativeSelect>
          )}
        </Field>
      ) : null}
      <AudienceCount draft={draft} segmentIds={segmentIds} ready={lists.isSuccess} />
    </div>,
    <div key="content" className="grid gap-4">
      {draft.channel === 'email' ? (
        <>
          <Field label={S.sender} hint={S.senderHint}>
            {(id) => (
              <Input
                id={id}
                value={draft.sender}
                placeholder="Acme <news@acme.com>"
                onChange={(e) => set('sender', e.target.value)}
              />
            )}
          </Field>
          <Field label={S.template}>
            {(id) => (
              <NativeSelect
                id={id}
                value={draft.templateId ?? ''}
                onChange={(e) => set('templateId', e.target.value ? Number(e.target.value) : null)}
              >
                <option value="">{S.noTemplate}</option>
                {(templates.data ?? []).map((t) => (
                  <option key={t.id} value={t.id}>
                    {t.name}
                  </option>
                ))}
              </NativeSelect>
            )}
          </Field>
          {draft.templateId ? null : (
            <>
              <Field label={S.subject}>
                {(id) => (
                  <Input id={id} value={draft.subject} onChange={(e) => set('subject', e.target.value)} />
                )}
              </Field>
              <Field label={S.html}>
                {(id) => (
                  <Textarea
                    id={id}
                    rows={8}
                    className="font-mono"
                    value={draft.html}
                    onChange={(e) => set('html', e.target.value)}
                  />
                )}
              </Field>
              <Field label={S.text}>
                {(id) => (
                  <Textarea
                    id={id}
                    rows={3}
                    value={draft.text}
                    onChange={(e) => set('text', e.target.value)}
                  />
                )}
              </Field>
              <label className="flex items-center gap-2 text-sm font-medium">
                <input
                  type="checkbox"
                  className="size-4"
                  checked={draft.abOn}
                  onChange={(e) => set('abOn', e.target.checked)}
                />
                {S.ab}
              </label>
              {draft.abOn ? (
                <div className="grid gap-4 rounded-md border p-3">
                  {draft.variants.map((v, i) => (
                    <Field key={i} label={S.variant(i)}>
                      {(id) => (
                        <Input
                          id={id}
                          value={v}
                          onChange={(e) =>
                            set(
                              'variants',
                              draft.variants.map((x, j) => (j === i ? e.target.value : x)),
                            )
                          }
                        />
                      )}
                    </Field>
                  ))}
                  {draft.variants.length < 4 ? (
                    <div>
                      <Button
                        variant="outline"
                        size="sm"
                        onClick={() => set('variants', [...draft.variants, ''])}
                      >
                        {S.addVariant}
                      </Button>
                    </div>
                  ) : null}
                  <div className="grid gap-4 sm:grid-cols-3">
                    <Field label={S.testShare} hint={S.testShareHint}>
                      {(id) => (
                        <Input
                          id={id}
                          type="number"
                          min={1}
                          max={100}
                          value={draft.testShare}
                          onChange={(e) => set('testShare', Number(e.target.value))}
                        />
                      )}
                    </Field>
                    <Field label={S.metric}>
                      {(id) => (
                        <NativeSelect
                          id={id}
                          value={draft.metric}
                          onChange={(e) => set('metric', e.target.value as 'opens' | 'clicks')}
                        >
                          <option value="opens">{S.metrics.opens}</option>
                          <option value="clicks">{S.metrics.clicks}</option>
                        </NativeSelect>
                      )}
                    </Field>
                    <Field label={S.wait}>
                      {(id) => (
                        <Input
                          id={id}
                          type="number"
                          min={1}
                          value={draft.wait}
                          onChange={(e) => set('wait', Number(e.target.value))}
                        />
                      )}
                    </Field>
                  </div>
                </div>
              ) : null}
            </>
          )}
        </>
      ) : draft.channel === 'whatsapp' ? (
        <WhatsappContent value={draft.whatsapp} onChange={(v) => set('whatsapp', v)} />
      ) : (
        <Field label={S.body}>
          {(id) => (
            <Textarea id={id} rows={5} value={draft.body} onChange={(e) => set('body', e.target.value)} />
          )}
        </Field>
      )}
    </div>,
    <div key="schedule" className="grid gap-4">
      <fieldset className="grid gap-2">
        <legend className="mb-1 text-sm font-medium">{S.schedule}</legend>
        {(['now', 'at', 'local'] as const).map((mode) => (
          <label key={mode} className="flex items-center gap-2 text-sm">
            <input
              type="radio"
              name="mode"
              className="size-4"
              checked={draft.mode === mode}
              onChange={() => set('mode', mode)}
            />
            {S.modes[mode]}
          </label>
        ))}
      </fieldset>
      {draft.mode === 'at' ? (
        <Field label={S.at}>
          {(id) => (
            <Input
              id={id}
              type="datetime-local"
              value={draft.at}
              onChange={(e) => set('at', e.target.value)}
            />
          )}
        </Field>
      ) : null}
      {draft.mode === 'local' ? (
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label={S.day}>
            {(id) => (
              <Input id={id} type="date" value={draft.day} onChange={(e) => set('day', e.target.value)} />
            )}
          </Field>
          <Field label={S.localTime}>
            {(id) => (
              <Input
                id={id}
                type="time"
                value={draft.localTime}
                onChange={(e) => set('localTime', e.target.value)}
              />
            )}
          </Field>
        </div>
      ) : null}
      <Field label={S.throttle} hint={draft.channel === 'email' ? undefined : S.quietHours}>
        {(id) => (
          <Input
            id={id}
            type="number"
            min={1}
            value={draft.throttle}
            onChange={(e) => set('throttle', e.target.value)}
          />
        )}
      </Field>
    </div>,
    savedId ? (
      <Review key="review" id={savedId} onScheduled={() => void navigate(campaignPath(savedId))} />
    ) : null,
  ];

  return (
    <PageLayout title={campaignId ? S.editTitle : S.newTitle}>
      <nav aria-label={S.review}>
        <ol className="flex flex-wrap gap-2 text-sm">
          {S.steps.map((name, i) => (
            <li
              key={name}
              aria-current={i === step ? 'step' : undefined}
              className={
                i === step
                  ? 'rounded-md bg-primary px-2 py-1 text-primary-foreground'
                  : 'px-2 py-1 text-muted-foreground'
              }
            >
              {i + 1}. {name}
            </li>
          ))}
        </ol>
      </nav>
      <h2 className="text-lg font-semibold">{S.stepOf(step + 1, S.steps.length, S.steps[step]!)}</h2>
      {steps[step]}
      <FormAlert message={error} />
      <div className="flex flex-wrap gap-2">
        {step > 0 ? (
          <Button variant="outline" onClick={() => setStep((s) => s - 1)}>
            {S.back}
          </Button>
        ) : null}
        {step < 3 ? (
          <Button onClick={() => void next()} disabled={save.isPending}>
            {S.next}
          </Button>
        ) : null}
        <Button
          variant="ghost"
          disabled={save.isPending}
          onClick={() => void saveDraft().then((id) => (id ? toast.success(S.saved) : undefined))}
        >
          {S.saveDraft}
        </Button>
      </div>
    </PageLayout>
  );
}

export function NewCampaignRoute() {
  const [params] = useSearchParams();
  const listId = Number(params.get('list_id')) || null;
  const templateId = Number(params.get('template_id')) || null;
  const asked = params.get('channel');
  const channel: TCampaignChannel = asked === 'sms' || asked === 'whatsapp' ? asked : 'email';
  // "Send to…" on a WhatsApp template: it is chosen, its variables still to map.
  const waName = params.get('wa_template')?.trim() ?? '';
  const waLanguage = params.get('wa_language')?.trim() ?? '';
  const whatsapp =
    channel === 'whatsapp' && waName && waLanguage
      ? { ...EMPTY_WHATSAPP, name: waName, language: waLanguage }
      : EMPTY.whatsapp;
  return (
    <Composer
      campaignId={null}
      initial={{ ...EMPTY, channel, listIds: listId ? [listId] : [], templateId, whatsapp }}
    />
  );
}

export function EditCampaignRoute() {
  const id = useParams().id ?? '';
  const campaign = useCampaign(id);
  if (campaign.isPending) return <SectionLoading />;
  if (campaign.isError)
    return (
      <SectionError
        error={campaign.error}
        onRetry={() => void campaign.refetch()}
        fallback={CAMPAIGNS_STRINGS.loadFailed}
      />
    );
  return <Composer campaignId={id} initial={fromCampaign(campaign.data)} />;
}
