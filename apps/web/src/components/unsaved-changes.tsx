// Warns before a form with unsaved changes is left: in-app navigation waits for a confirm dialog
// (react-router's blocker) and closing or reloading the tab asks the browser's own question
// (`beforeunload`). One hook for every editor and settings form:
//
//   const unsaved = useUnsavedChanges(isDirty);
//   … after a save that navigates away: unsaved.release(); navigate(…)
//   return <>{unsaved.dialog}<form>…</form></>;
import { useCallback, useEffect, useRef, type ReactNode, type RefObject } from 'react';
import { useBlocker, type BlockerFunction } from 'react-router';

import { UNSAVED_CHANGES_STRINGS as S } from '../lib/strings';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from './ui/alert-dialog';
import { buttonVariants } from './ui/button';

export function useUnsavedChanges(dirty: boolean): {
  /** The confirm dialog to render while a navigation waits (nothing while the form is clean). */
  dialog: ReactNode;
  /** Lets the next navigation through without asking (call right before navigating after a save). */
  release: () => void;
} {
  const dirtyRef = useRef(dirty);
  useEffect(() => {
    dirtyRef.current = dirty;
  }, [dirty]);

  useEffect(() => {
    if (!dirty) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (!dirtyRef.current) return;
      event.preventDefault();
      // Older browsers show the prompt only when returnValue is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [dirty]);

  const release = useCallback(() => {
    dirtyRef.current = false;
  }, []);

  // The router consults one blocker at a time, so a form registers its blocker only while it holds
  // changes: a page with several forms blocks for the one being edited.
  return { dialog: dirty ? <NavigationBlocker dirtyRef={dirtyRef} /> : null, release };
}

function NavigationBlocker({ dirtyRef }: { dirtyRef: RefObject<boolean> }) {
  const shouldBlock = useCallback<BlockerFunction>(
    ({ currentLocation, nextLocation }) =>
      dirtyRef.current && currentLocation.pathname !== nextLocation.pathname,
    [dirtyRef],
  );
  const blocker = useBlocker(shouldBlock);
  return (
    <AlertDialog
      open={blocker.state === 'blocked'}
      onOpenChange={(open) => {
        if (!open && blocker.state === 'blocked') blocker.reset();
      }}
    >
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>{S.title}</AlertDialogTitle>
          <AlertDialogDescription>{S.text}</AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel>{S.stay}</AlertDialogCancel>
          <AlertDialogAction
            className={buttonVariants({ variant: 'destructive' })}
            onClick={() => {
              if (blocker.state === 'blocked') blocker.proceed();
            }}
          >
            {S.leave}
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
