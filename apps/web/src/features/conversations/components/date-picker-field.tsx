// A labelled date picker whose value reads dd-MM-yyyy (spec section 2): a button opening a calendar
// of fixed weeks (react-day-picker), and a way to clear the date.
import 'react-day-picker/style.css';

import { CalendarIcon, XIcon } from 'lucide-react';
import { useId, useState, type CSSProperties } from 'react';
import { DayPicker } from 'react-day-picker';

import { Button } from '../../../components/ui/button';
import { Popover, PopoverContent, PopoverTrigger } from '../../../components/ui/popover';
import { CONVERSATIONS_STRINGS } from '../strings';
import { formatFilterDate, parseFilterDate } from '../utils/filters';

const CALENDAR_STYLE = {
  '--rdp-accent-color': 'var(--primary)',
  '--rdp-accent-background-color': 'var(--accent)',
  '--rdp-day-height': '2.25rem',
  '--rdp-day-width': '2.25rem',
  '--rdp-day_button-height': '2.125rem',
  '--rdp-day_button-width': '2.125rem',
} as CSSProperties;

export function DatePickerField({
  label,
  value,
  onChange,
}: {
  label: string;
  /** dd-MM-yyyy or ''. */
  value: string;
  onChange: (value: string) => void;
}) {
  const labelId = useId();
  const [open, setOpen] = useState(false);
  const selected = parseFilterDate(value) ?? undefined;
  return (
    <div className="grid gap-2">
      <span id={labelId} className="text-sm leading-none font-medium">
        {label}
      </span>
      <div className="flex items-center gap-1">
        <Popover open={open} onOpenChange={setOpen}>
          <PopoverTrigger asChild>
            <Button
              type="button"
              variant="outline"
              aria-labelledby={labelId}
              className="flex-1 justify-start font-normal"
            >
              <CalendarIcon aria-hidden="true" />
              <span className={selected ? undefined : 'text-muted-foreground'}>
                {selected ? value : CONVERSATIONS_STRINGS.pickDate}
              </span>
            </Button>
          </PopoverTrigger>
          <PopoverContent className="w-auto p-2" align="start" aria-label={label}>
            <DayPicker
              mode="single"
              fixedWeeks
              showOutsideDays
              selected={selected}
              defaultMonth={selected}
              style={CALENDAR_STYLE}
              onSelect={(date) => {
                onChange(date ? formatFilterDate(date) : '');
                setOpen(false);
              }}
            />
          </PopoverContent>
        </Popover>
        {selected ? (
          <Button
            type="button"
            variant="ghost"
            size="icon"
            aria-label={CONVERSATIONS_STRINGS.clearDate(label)}
            onClick={() => onChange('')}
          >
            <XIcon aria-hidden="true" />
          </Button>
        ) : null}
      </div>
    </div>
  );
}
