// /engage/journeys/new and /engage/journeys/:id: the journey editor. A canvas (React Flow, loaded on
// wide screens only) and the list of steps on the left, the selected step's panel on the right.
// Save keeps a draft (or makes a new version of a published journey); the server's errors land on
// the step and field they name. Publish makes it live; a live journey shows per-step counts.
import { JOURNEY_REENTRY, type TJourney, type TJourneyReentry } from '@titan/contracts';
import { ArrowLeftIcon, PlusIcon } from 'lucide-react';
import { lazy, Suspense, useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { toast } from 'sonner';

import { FormAlert } from '../../../components/form/form-alert';
import { PageLayout } from '../../../components/layout/page-layout';
import { SectionError, SectionLoading } from '../../../components/load-state';
import { StatusBadge } from '../../../components/status-badge';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { NativeSelect } from '../../../components/ui/native-select';
import { useUnsavedChanges } from '../../../components/unsaved-changes';
import { journeyPath, JOURNEYS_PATH } from '../../../config/paths';
import { apiErrorMessage, describeApiFailure } from '../../../lib/api-errors';
import { usePermissions } from '../../../lib/business/roles';
import { useJourney } from '../api/get-journey';
import { useJourneyStats } from '../api/get-journey-stats';
import { useJourneyAction } from '../api/publish-or-pause-journey';
import { useSaveJourney } from '../api/save-journey';
import { CustomerPath } from '../components/customer-path';
import { MoveInFlight } from '../components/move-in-flight';
import { StepList } from '../components/step-list';
import { StepPanel } from '../components/step-panel';
import {
  addStep,
  EDITABLE_STEP_TYPES,
  linkSteps,
  NO_ERRORS,
  placeErrors,
  removeStep,
  replaceNode,
  type TGraph,
  type TGraphErrors,
} from '../graph';
import { EDITOR_STRINGS as S, JOURNEYS_STRINGS as L, STEP_TITLES } from '../strings';

const JourneyCanvas = lazy(async () => ({
  default: (await import('../components/journey-canvas')).JourneyCanvas,
}));

const WIDE = '(min-width: 1024px)';
function useWide(): boolean {
  const query = () => (typeof window.matchMedia === 'function' ? window.matchMedia(WIDE) : null);
  const [wide, setWide] = useState(() => query()?.matches ?? false);
  useEffect(() => {
    const list = query();
    if (!list) return;
    const onChange = () => setWide(list.matches);
    list.addEventListener('change', onChange);
    return () => list.removeEventListener('change', onChange);
  }, []);
  return wide;
}

export function NewJourneyRoute() {
  return <JourneyEditor journey={null} />;
}

export function JourneyRoute() {
  const id = Number(useParams().id);
  const journey = useJourney(id);
  if (journey.isPending) return <SectionLoading />;
  if (journey.isError)
    return (
      <PageLayout title={L.title}>
        <SectionError error={journey.error} onRetry={() => void journey.refetch()} fallback={S.loadFailed} />
      </PageLayout>
    );
  return <JourneyEditor key={journey.data.id} journey={journey.data} />;
}

const STARTING_GRAPH: TGraph = {
  nodes: [
    {
      id: 'trigger-1',
      type: 'trigger',
      config: { kind: 'event', event: 'signed_up' },
      position: { x: 0, y: 0 },
    },
  ],
  edges: [],
};

const STATUS_TONE = { draft: 'neutral', live: 'good', paused: 'waiting' } as const;

function JourneyEditor({ journey }: { journey: TJourney | null }) {
  const navigate = useNavigate();
  const wide = useWide();
  const canWrite = usePermissions().can('engage.write');
  const readOnly = !canWrite;
  const [name, setName] = useState(journey?.name ?? S.defaultName);
  const [reentry, setReentry] = useState<TJourneyReentry>(journey?.reentry ?? 'never');
  const [goalEvent, setGoalEvent] = useState(journey?.goal?.event ?? '');
  const [goalDays, setGoalDays] = useState(String(journey?.goal?.within_days ?? 7));
  const [graph, setGraph] = useState<TGraph>(journey?.graph ?? STARTING_GRAPH);
  const [selectedId, setSelectedId] = useState<string | null>(graph.nodes[0]?.id ?? null);
  const [errors, setErrors] = useState<TGraphErrors>(NO_ERRORS);
  const [nameError, setNameError] = useState<string | undefined>();
  const [dirty, setDirty] = useState(journey === null);
  const unsaved = useUnsavedChanges(dirty && canWrite);

  const save = useSaveJourney(journey?.id ?? null);
  const action = useJourneyAction(journey?.id ?? null);
  const stats = useJourneyStats(journey?.id ?? null, journey?.live_version != null);
  const selected = graph.nodes.find((n) => n.id === selectedId) ?? null;

  const change = (next: TGraph) => {
    setGraph(next);
    setDirty(true);
  };

  const onSave = () => {
    save.mutate(
      {
        name,
        reentry,
        graph,
        goal: goalEvent.trim() ? { event: goalEvent.trim(), within_days: Number(goalDays) } : null,
      },
      {
        onSuccess: (saved) => {
          setDirty(false);
          setErrors(NO_ERRORS);
          setNameError(undefined);
          toast.success(S.saved);
          if (!journey) {
            unsaved.release();
            void navigate(journeyPath(saved.id), { replace: true });
          }
        },
        onError: (err) => {
          const failure = describeApiFailure(err);
          if (failure.kind === 'response' && failure.fieldErrors) {
            const placed = placeErrors(failure.fieldErrors, graph);
            setNameError(failure.fieldErrors.name?.join(' '));
            setErrors(placed);
            const first = Object.keys(placed.steps)[0];
            if (first) setSelectedId(first);
            toast.error(S.saveFailed);
          } else toast.error(apiErrorMessage(err));
        },
      },
    );
  };

  const onAction = (which: 'publish' | 'pause') => {
    if (which === 'publish' && dirty) {
      toast.error(S.unsavedBeforePublish);
      return;
    }
    action.mutate(which, {
      onSuccess: () => toast.success(which === 'publish' ? S.published : S.paused),
      onError: (err) => toast.error(apiErrorMessage(err)),
    });
  };

  const current = action.data ?? journey;
  const status = current?.status ?? 'draft';

  return (
    <PageLayout width="wide">
      {unsaved.dialog}
      <header className="grid gap-4">
        <Link
          to={JOURNEYS_PATH}
          className="flex w-fit items-center gap-1 text-sm text-muted-foreground hover:text-foreground"
        >
          <ArrowLeftIcon className="size-4" aria-hidden="true" />
          {S.back}
        </Link>
        <div className="flex flex-wrap items-end justify-between gap-3">
          <div className="flex min-w-0 flex-wrap items-end gap-3">
            <div className="grid min-w-0 gap-2">
              <Label htmlFor="journey-name">{S.name}</Label>
              <Input
                id="journey-name"
                className="w-full sm:w-72"
                value={name}
                disabled={readOnly}
                aria-invalid={nameError ? true : undefined}
                onChange={(e) => {
                  setName(e.target.value);
                  setDirty(true);
                }}
              />
            </div>
            <div className="grid gap-2">
              <Label htmlFor="journey-reentry">{S.reentry}</Label>
              <NativeSelect
                id="journey-reentry"
                className="w-52"
                value={reentry}
                disabled={readOnly}
                onChange={(e) => {
                  setReentry(e.target.value as TJourneyReentry);
                  setDirty(true);
                }}
              >
                {JOURNEY_REENTRY.map((r) => (
                  <option key={r} value={r}>
                    {S.reentries[r]}
                  </option>
                ))}
              </NativeSelect>
            </div>
            <div className="grid gap-2">
              <Label htmlFor="journey-goal-event">{S.goalEvent}</Label>
              <Input
                id="journey-goal-event"
                className="w-full sm:w-52"
                value={goalEvent}
                disabled={readOnly}
                placeholder="order.paid"
                title={S.goalEventHint}
                onChange={(e) => {
                  setGoalEvent(e.target.value);
                  setDirty(true);
                }}
              />
            </div>
            <div className="grid gap-2">
              <Label htmlFor="journey-goal-days">{S.goalDays}</Label>
              <Input
                id="journey-goal-days"
                inputMode="numeric"
                className="w-28"
                value={goalDays}
                disabled={readOnly}
                onChange={(e) => {
                  setGoalDays(e.target.value);
                  setDirty(true);
                }}
              />
            </div>
          </div>
          <div className="flex flex-wrap items-center gap-2">
            {current ? (
              <>
                <StatusBadge tone={STATUS_TONE[status]}>{L.statuses[status]}</StatusBadge>
                <span className="text-sm text-muted-foreground">
                  {S.version(current.version, current.live_version)}
                </span>
              </>
            ) : null}
            {canWrite ? (
              <>
                <Button type="button" variant="outline" onClick={onSave} disabled={save.isPending}>
                  {current?.live_version != null ? S.saveVersion : S.save}
                </Button>
                {current && status === 'live' ? (
                  <Button
                    type="button"
                    variant="outline"
                    onClick={() => onAction('pause')}
                    disabled={action.isPending}
                  >
                    {S.pause}
                  </Button>
                ) : null}
                {current && (status !== 'live' || current.live_version !== current.version) ? (
                  <Button type="button" onClick={() => onAction('publish')} disabled={action.isPending}>
                    {S.publish}
                  </Button>
                ) : null}
              </>
            ) : null}
          </div>
        </div>
        {nameError ? <p className="text-sm text-destructive">{nameError}</p> : null}
        {stats.data ? (
          <p className="text-sm text-muted-foreground">{S.customersSummary(stats.data.customers)}</p>
        ) : null}
        {stats.data?.goal ? (
          <p className="text-sm text-muted-foreground">{S.goalSummary(stats.data.goal)}</p>
        ) : null}
        {stats.isError ? (
          <p role="status" className="text-sm text-muted-foreground">
            {S.countsUnavailable}
          </p>
        ) : null}
        {canWrite &&
        current &&
        current.live_version === current.version &&
        status !== 'draft' &&
        (stats.data?.in_flight_on_older_versions ?? 0) > 0 ? (
          <MoveInFlight
            journeyId={current.id}
            graph={current.graph}
            count={stats.data!.in_flight_on_older_versions}
          />
        ) : null}
      </header>

      <FormAlert message={errors.general.length ? S.graphErrors : undefined}>
        <ul className="list-disc pl-4">
          {errors.general.map((e) => (
            <li key={e}>{e}</li>
          ))}
        </ul>
      </FormAlert>

      <div className="grid min-w-0 gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]">
        <div className="grid min-w-0 content-start gap-4">
          {canWrite ? (
            <div role="toolbar" aria-label={S.addStep} className="flex flex-wrap gap-2">
              {EDITABLE_STEP_TYPES.filter(
                (t) => t !== 'trigger' || !graph.nodes.some((n) => n.type === 'trigger'),
              ).map((type) => (
                <Button
                  key={type}
                  type="button"
                  variant="outline"
                  size="sm"
                  aria-label={S.addStepOf(STEP_TITLES[type])}
                  onClick={() => {
                    const added = addStep(graph, type, selected ?? undefined);
                    change(added.graph);
                    setSelectedId(added.node.id);
                  }}
                >
                  <PlusIcon aria-hidden="true" />
                  {STEP_TITLES[type]}
                </Button>
              ))}
            </div>
          ) : null}
          {wide ? (
            <Suspense fallback={<p className="text-sm text-muted-foreground">{S.loadingCanvas}</p>}>
              <JourneyCanvas
                graph={graph}
                selectedId={selectedId}
                stats={stats.data}
                errors={errors}
                readOnly={readOnly}
                onSelect={setSelectedId}
                onMove={(id, position) =>
                  change({ ...graph, nodes: graph.nodes.map((n) => (n.id === id ? { ...n, position } : n)) })
                }
                onLink={(from, label, to) => change(linkSteps(graph, from, label, to))}
              />
            </Suspense>
          ) : null}
          <p className="text-sm text-muted-foreground">{S.stepsHint}</p>
          <StepList
            graph={graph}
            selectedId={selectedId}
            stats={stats.data}
            errors={errors}
            onSelect={setSelectedId}
          />
        </div>
        <aside className="min-w-0 rounded-lg border p-4 lg:sticky lg:top-4 lg:self-start">
          {selected ? (
            <StepPanel
              key={selected.id}
              node={selected}
              graph={graph}
              errors={errors.steps[selected.id]}
              readOnly={readOnly}
              onChange={(node) => change(replaceNode(graph, node))}
              onLink={(label, to) => change(linkSteps(graph, selected.id, label, to))}
              onRemove={() => {
                change(removeStep(graph, selected.id));
                setSelectedId(null);
              }}
            />
          ) : (
            <p className="text-sm text-muted-foreground">{S.noStepSelected}</p>
          )}
        </aside>
      </div>

      {journey ? <CustomerPath journeyId={journey.id} canTest={canWrite} /> : null}
    </PageLayout>
  );
}
