// The blocker modal (spec section 4): shows the dialog of a 402 answer until the person closes it.
import { useBlockerModalStore } from '../stores/blocker-modal';
import { BLOCKER_MODAL_STRINGS } from '../lib/strings';
import { Button } from './ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from './ui/dialog';

export function BlockerModal() {
  const { open, title, description, close } = useBlockerModalStore();
  return (
    <Dialog open={open} onOpenChange={(next) => (next ? undefined : close())}>
      <DialogContent showCloseButton={false}>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>{description}</DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <Button onClick={close}>{BLOCKER_MODAL_STRINGS.close}</Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
