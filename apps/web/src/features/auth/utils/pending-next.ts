// Where to return after signing up: the verification link opens in a fresh page (often a new tab),
// so the path asked for before sign-up waits in localStorage until the next login.
import { safeNextPath } from '../../../config/paths';

const PENDING_NEXT_KEY = 'titan.pending-next';

export function rememberPendingNext(next: string | null): void {
  try {
    const safe = safeNextPath(next);
    if (safe) window.localStorage.setItem(PENDING_NEXT_KEY, safe);
    else window.localStorage.removeItem(PENDING_NEXT_KEY);
  } catch {
    // Storage blocked: the person lands on the dashboard instead.
  }
}

export function readPendingNext(): string | null {
  try {
    return safeNextPath(window.localStorage.getItem(PENDING_NEXT_KEY));
  } catch {
    return null;
  }
}

export function forgetPendingNext(): void {
  try {
    window.localStorage.removeItem(PENDING_NEXT_KEY);
  } catch {
    // Nothing to forget.
  }
}
