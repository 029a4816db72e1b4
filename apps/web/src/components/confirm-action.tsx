// The one confirm dialog: a button that asks before doing something that cannot be undone (revoke,
// remove, delete, rotate) or that costs something (sending many messages, buying a top-up). The
// description says what is lost or what it costs; `tone` picks the confirm button's look.
import type { ReactNode } from 'react';

import { CONFIRM_ACTION_STRINGS } from '../lib/strings';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from './ui/alert-dialog';
import { Button, buttonVariants, type TButtonProps } from './ui/button';

export function ConfirmAction({
  trigger,
  triggerLabel,
  title,
  description,
  confirmLabel,
  disabled,
  variant = 'ghost',
  size = 'sm',
  tone = 'destructive',
  onConfirm,
}: {
  trigger: ReactNode;
  /** Accessible name of the trigger when its content is an icon or is ambiguous in a list. */
  triggerLabel?: string;
  title: string;
  description: string;
  confirmLabel: string;
  disabled?: boolean;
  /** How the trigger looks: quiet in a table row by default, louder as a page's own action. */
  variant?: TButtonProps['variant'];
  size?: TButtonProps['size'];
  /** The confirm button: red for deleting, the default look for a costly but wanted action. */
  tone?: 'destructive' | 'default';
  onConfirm: () => void;
}) {
  return (
    <AlertDialog>
      <AlertDialogTrigger asChild>
        <Button variant={variant} size={size} aria-label={triggerLabel} disabled={disabled}>
          {trigger}
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>{title}</AlertDialogTitle>
          <AlertDialogDescription>{description}</AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel>{CONFIRM_ACTION_STRINGS.cancel}</AlertDialogCancel>
          <AlertDialogAction className={buttonVariants({ variant: tone })} onClick={onConfirm}>
            {confirmLabel}
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
