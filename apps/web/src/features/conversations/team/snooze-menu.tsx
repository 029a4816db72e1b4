// The conversation header's Snooze items (issue 29): later today, tomorrow, next week, a custom
// time; each shows its time in the business's time zone, and a snoozed conversation can be woken.
import type { TConversation } from '@titan/contracts';
import { useState } from 'react';
import { toast } from 'sonner';

import { Button } from '../../../components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../../components/ui/dialog';
import { DropdownMenuItem, DropdownMenuLabel } from '../../../components/ui/dropdown-menu';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { reportApiError } from '../../../lib/api-errors';
import { useBusiness } from '../../../lib/business/business';
import { browserTimeZone } from '../../../lib/time-zones';
import { useUpdateConversation } from '../api/update-conversation';
import { formatInZone, snoozePresetTime, wallTimeIn, type SnoozePreset } from './snooze';

export const SNOOZE_STRINGS = {
  heading: 'Snooze',
  presets: { later: 'Later today', tomorrow: 'Tomorrow', next_week: 'Next week' } satisfies Record<
    SnoozePreset,
    string
  >,
  custom: 'Custom time…',
  wake: 'Unsnooze',
  customTitle: 'Snooze until',
  customDescription: (zone: string) => `The time is in the business's time zone (${zone}).`,
  customLabel: 'Date and time',
  save: 'Snooze',
  cancel: 'Cancel',
  badTime: 'Choose a time in the future.',
  snoozed: (when: string) => `Snoozed until ${when}`,
  woken: 'The conversation is active again',
  until: (when: string) => `Snoozed until ${when}`,
};
const S = SNOOZE_STRINGS;

export function useBusinessTimeZone(): string {
  const business = useBusiness();
  return business.data?.time_zone ?? browserTimeZone();
}

export function useSnooze(conversation: TConversation) {
  const update = useUpdateConversation();
  const timeZone = useBusinessTimeZone();
  const snooze = (until: Date | null) =>
    update.mutate(
      { id: conversation.id, snoozed_until: until ? until.toISOString() : null },
      {
        onSuccess: () => toast.success(until ? S.snoozed(formatInZone(until, timeZone)) : S.woken),
        onError: (error) => reportApiError(error, { toast: true }),
      },
    );
  return { snooze, timeZone, pending: update.isPending };
}

/** The menu items; `onCustom` opens the custom-time dialog (rendered outside the menu). */
export function SnoozeMenuItems({
  conversation,
  snooze,
  timeZone,
  onCustom,
}: {
  conversation: TConversation;
  snooze: (until: Date | null) => void;
  timeZone: string;
  onCustom: () => void;
}) {
  const presets: SnoozePreset[] = ['later', 'tomorrow', 'next_week'];
  return (
    <>
      <DropdownMenuLabel>{S.heading}</DropdownMenuLabel>
      {presets.map((preset) => {
        const at = snoozePresetTime(preset, timeZone);
        return (
          <DropdownMenuItem key={preset} onSelect={() => snooze(at)}>
            <span className="flex-1">{S.presets[preset]}</span>
            <span className="text-xs text-muted-foreground">{formatInZone(at, timeZone)}</span>
          </DropdownMenuItem>
        );
      })}
      <DropdownMenuItem onSelect={onCustom}>{S.custom}</DropdownMenuItem>
      {conversation.status === 'snoozed' ? (
        <DropdownMenuItem onSelect={() => snooze(null)}>{S.wake}</DropdownMenuItem>
      ) : null}
    </>
  );
}

export function SnoozeCustomDialog({
  open,
  onOpenChange,
  snooze,
  timeZone,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  snooze: (until: Date) => void;
  timeZone: string;
}) {
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const at = wallTimeIn(value, timeZone);
    if (!at || at.getTime() <= Date.now()) {
      setError(S.badTime);
      return;
    }
    snooze(at);
    onOpenChange(false);
  };
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <form onSubmit={submit} noValidate>
          <DialogHeader>
            <DialogTitle>{S.customTitle}</DialogTitle>
            <DialogDescription>{S.customDescription(timeZone)}</DialogDescription>
          </DialogHeader>
          <div className="my-4 grid gap-2">
            <Label htmlFor="snooze-until">{S.customLabel}</Label>
            <Input
              id="snooze-until"
              type="datetime-local"
              value={value}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? 'snooze-until-error' : undefined}
              onChange={(e) => {
                setValue(e.target.value);
                setError(null);
              }}
            />
            {error ? (
              <p id="snooze-until-error" role="alert" className="text-sm text-destructive">
                {error}
              </p>
            ) : null}
          </div>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
              {S.cancel}
            </Button>
            <Button type="submit">{S.save}</Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
