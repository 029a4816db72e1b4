// The audience: the lists and segments to write to, each with today's member count (a segment's is
// counted live by the server), and the extra conditions a suggestion may carry, shown in words.
import type { TCustomerList, TSegmentFilter } from '@titan/contracts';
import { useId } from 'react';

import { SectionError, SectionLoading } from '../../../components/load-state';
import { Button } from '../../../components/ui/button';
import { useAudienceLists } from '../api/audience-options';
import { AGENT_STRINGS } from '../strings';
import { segmentInWords } from '../utils/segment-words';
import { CheckboxRow, Section } from './section';

const E = AGENT_STRINGS.editor;

export function AudienceField({
  value,
  onChange,
  error,
  segment,
  onRemoveSegment,
  segmentError,
  disabled,
}: {
  value: number[];
  onChange: (ids: number[]) => void;
  error: string | undefined;
  segment: TSegmentFilter | undefined;
  onRemoveSegment: () => void;
  segmentError: string | undefined;
  disabled: boolean;
}) {
  const lists = useAudienceLists();
  const errorId = useId();
  const toggle = (list: TCustomerList, on: boolean) =>
    onChange(on ? [...value, list.id] : value.filter((id) => id !== list.id));
  const total = (lists.data ?? [])
    .filter((l) => value.includes(l.id))
    .reduce((n, l) => n + l.member_count, 0);

  return (
    <Section title={E.audience} hint={E.audienceHint}>
      {lists.isPending ? (
        <SectionLoading />
      ) : lists.isError ? (
        <SectionError error={lists.error} onRetry={() => void lists.refetch()} fallback={E.audienceFailed} />
      ) : lists.data.length === 0 ? (
        <p className="text-sm text-muted-foreground">{E.noLists}</p>
      ) : (
        <div role="group" aria-label={E.audience} className="grid gap-2 sm:grid-cols-2">
          {lists.data.map((list) => (
            <CheckboxRow
              key={list.id}
              checked={value.includes(list.id)}
              disabled={disabled}
              describedBy={error ? errorId : undefined}
              onChange={(on) => toggle(list, on)}
              label={list.name}
              detail={`${E.listKind[list.kind]} · ${E.members(list.member_count)}`}
            />
          ))}
        </div>
      )}
      {value.length > 0 && lists.data ? <p className="text-sm">{E.audienceTotal(total)}</p> : null}
      {error ? (
        <p id={errorId} role="alert" className="text-sm text-destructive">
          {error}
        </p>
      ) : null}
      {segment ? (
        <div className="grid gap-2 rounded-md bg-muted/50 p-3 text-sm">
          <p className="font-medium">{value.length > 0 ? E.conditions : E.everyone}</p>
          <ul className="list-disc pl-5">
            {segmentInWords(segment).map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
          {segmentError ? (
            <p role="alert" className="text-destructive">
              {segmentError}
            </p>
          ) : null}
          {disabled ? null : (
            <div>
              <Button type="button" variant="outline" size="sm" onClick={onRemoveSegment}>
                {E.removeConditions}
              </Button>
            </div>
          )}
        </div>
      ) : null}
    </Section>
  );
}
