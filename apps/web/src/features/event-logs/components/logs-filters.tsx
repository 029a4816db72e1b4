// A channel's log filters: status, a search, and a day range of when messages were sent.
import type { TEventLogChannel } from '@titan/contracts';
import { useId } from 'react';

import { SearchBox } from '../../../components/search-box';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { NativeSelect } from '../../../components/ui/native-select';
import { EVENT_LOGS_STRINGS } from '../strings';
import {
  hasLogFilters,
  logStatuses,
  NO_LOG_FILTERS,
  type TLogFilters,
  type TLogStatus,
} from '../utils/log-filters';

const S = EVENT_LOGS_STRINGS.logs;

export function LogsFilters({
  channel,
  filters,
  onChange,
}: {
  channel: TEventLogChannel;
  filters: TLogFilters;
  onChange: (next: TLogFilters) => void;
}) {
  const id = useId();
  return (
    <div className="flex flex-wrap items-end gap-3">
      <div className="min-w-56 flex-1">
        <SearchBox
          value={filters.search}
          onSearch={(search) => (search === filters.search ? undefined : onChange({ ...filters, search }))}
          label={S.search}
          placeholder={EVENT_LOGS_STRINGS.channels[channel].searchPlaceholder}
          clearLabel={S.clearSearch}
        />
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor={`${id}-status`}>{S.status}</Label>
        <NativeSelect
          id={`${id}-status`}
          value={filters.status}
          onChange={(event) => onChange({ ...filters, status: event.target.value as TLogStatus | '' })}
          className="w-40"
        >
          <option value="">{S.allStatuses}</option>
          {logStatuses(channel).map((status) => (
            <option key={status} value={status}>
              {EVENT_LOGS_STRINGS.statusLabels[status]}
            </option>
          ))}
        </NativeSelect>
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor={`${id}-from`}>{S.from}</Label>
        <Input
          id={`${id}-from`}
          type="date"
          value={filters.from}
          max={filters.to || undefined}
          onChange={(event) => onChange({ ...filters, from: event.target.value })}
          className="w-40"
        />
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor={`${id}-to`}>{S.to}</Label>
        <Input
          id={`${id}-to`}
          type="date"
          value={filters.to}
          min={filters.from || undefined}
          onChange={(event) => onChange({ ...filters, to: event.target.value })}
          className="w-40"
        />
      </div>
      {hasLogFilters(filters) ? (
        <Button variant="ghost" onClick={() => onChange(NO_LOG_FILTERS)}>
          {S.clearFilters}
        </Button>
      ) : null}
    </div>
  );
}
