// A WhatsApp media that cannot be fetched says so with a toast (spec section 8: the server's message
// or "Something went wrong") besides the text in its place, once per conversation view: a thread
// of broken media must not pile up toasts.
import { createContext, useCallback, useContext, useRef } from 'react';
import { toast } from 'sonner';

import { apiErrorMessage, isHandledApiError } from '../../../lib/api-errors';

/** One toast slot: while one is shown, another failure replaces it rather than adding one. */
export const MEDIA_FAILURE_TOAST_ID = 'whatsapp-media-failure';

function toastMediaFailure(error: unknown): void {
  if (isHandledApiError(error)) return;
  toast.error(apiErrorMessage(error), { id: MEDIA_FAILURE_TOAST_ID });
}

/** Outside a conversation view (a lone message) each failure toasts, into the one slot. */
export const MediaFailureContext = createContext<(error: unknown) => void>(toastMediaFailure);

export function useMediaFailureNotice(): (error: unknown) => void {
  return useContext(MediaFailureContext);
}

/** For a conversation view (keyed by conversation): the first media failure toasts, later ones not. */
export function useMediaFailureNotifier(): (error: unknown) => void {
  const shown = useRef(false);
  return useCallback((error: unknown) => {
    if (shown.current || isHandledApiError(error)) return;
    shown.current = true;
    toastMediaFailure(error);
  }, []);
}
