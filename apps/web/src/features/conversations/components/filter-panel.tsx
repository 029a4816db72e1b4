// The Filter button and the "Filters" panel (spec section 2): Status, Channel, Read Status, Business
// Response, the created-date and the last-message-date ranges (spec section 3's filter). Choices are drafts until "Apply Filters"; "Clear all" drops
// every filter at once. The button carries an "Active" badge while any filter applies.
import { FilterIcon } from 'lucide-react';
import { useId, useState } from 'react';

import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Label } from '../../../components/ui/label';
import { NativeSelect } from '../../../components/ui/native-select';
import { Popover, PopoverContent, PopoverTrigger } from '../../../components/ui/popover';
import { CONVERSATIONS_STRINGS as S } from '../strings';
import { hasActiveFilters, NO_FILTERS, type TFilterChoices } from '../utils/filters';
import { DatePickerField } from './date-picker-field';

type TSelectKey = 'status' | 'channel' | 'readStatus' | 'businessResponse';

const SELECTS: { key: TSelectKey; label: string; options: { value: string; label: string }[] }[] = [
  {
    key: 'status',
    label: S.status,
    options: [
      { value: 'all', label: S.all },
      { value: 'active', label: S.active },
      { value: 'resolved', label: S.resolved },
    ],
  },
  {
    key: 'channel',
    label: S.channel,
    options: [
      { value: 'all', label: S.all },
      { value: 'whatsapp', label: S.whatsapp },
      { value: 'titan_message', label: S.titanMessage },
      { value: 'email', label: S.email },
      { value: 'sms', label: S.sms },
    ],
  },
  {
    key: 'readStatus',
    label: S.readStatus,
    options: [
      { value: 'all', label: S.all },
      { value: 'read', label: S.read },
      { value: 'unread', label: S.unread },
    ],
  },
  {
    key: 'businessResponse',
    label: S.businessResponse,
    options: [
      { value: 'all', label: S.all },
      { value: 'replied', label: S.replied },
      { value: 'not_replied', label: S.notReplied },
    ],
  },
];

function SelectChoice({
  label,
  value,
  options,
  onChange,
}: {
  label: string;
  value: string;
  options: { value: string; label: string }[];
  onChange: (value: string) => void;
}) {
  const id = useId();
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>{label}</Label>
      <NativeSelect id={id} value={value} onChange={(event) => onChange(event.target.value)}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </NativeSelect>
    </div>
  );
}

export function FilterPanel({
  applied,
  onApply,
}: {
  applied: TFilterChoices;
  onApply: (choices: TFilterChoices) => void;
}) {
  const titleId = useId();
  const [open, setOpen] = useState(false);
  const [draft, setDraft] = useState<TFilterChoices>(applied);
  const active = hasActiveFilters(applied);

  const openChange = (next: boolean) => {
    // Each opening starts from what is applied, not from an abandoned draft.
    if (next) setDraft(applied);
    setOpen(next);
  };

  return (
    <Popover open={open} onOpenChange={openChange}>
      <PopoverTrigger asChild>
        <Button variant="outline" size="sm">
          <FilterIcon aria-hidden="true" />
          {S.filter}
          {active ? <Badge variant="secondary">{S.filterActiveBadge}</Badge> : null}
        </Button>
      </PopoverTrigger>
      <PopoverContent align="start" aria-labelledby={titleId} className="grid w-80 gap-4">
        <h2 id={titleId} className="font-semibold">
          {S.filtersTitle}
        </h2>
        {SELECTS.map((select) => (
          <SelectChoice
            key={select.key}
            label={select.label}
            value={draft[select.key]}
            options={select.options}
            onChange={(value) => setDraft((d) => ({ ...d, [select.key]: value }))}
          />
        ))}
        <DatePickerField
          label={S.createdAfter}
          value={draft.createdAfter}
          onChange={(value) => setDraft((d) => ({ ...d, createdAfter: value }))}
        />
        <DatePickerField
          label={S.createdBefore}
          value={draft.createdBefore}
          onChange={(value) => setDraft((d) => ({ ...d, createdBefore: value }))}
        />
        <DatePickerField
          label={S.lastMessageAfter}
          value={draft.lastMessageAfter}
          onChange={(value) => setDraft((d) => ({ ...d, lastMessageAfter: value }))}
        />
        <DatePickerField
          label={S.lastMessageBefore}
          value={draft.lastMessageBefore}
          onChange={(value) => setDraft((d) => ({ ...d, lastMessageBefore: value }))}
        />
        <div className="flex justify-between gap-2 pt-2">
          <Button
            type="button"
            variant="ghost"
            onClick={() => {
              setDraft(NO_FILTERS);
              onApply(NO_FILTERS);
              setOpen(false);
            }}
          >
            {S.clearAll}
          </Button>
          <Button
            type="button"
            onClick={() => {
              onApply(draft);
              setOpen(false);
            }}
          >
            {S.applyFilters}
          </Button>
        </div>
      </PopoverContent>
    </Popover>
  );
}
