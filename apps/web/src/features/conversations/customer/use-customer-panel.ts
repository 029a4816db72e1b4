// Whether the customer panel is open: what the member last chose (kept in this browser), else open
// where it fits beside the conversation (1280 px and up) and closed on narrower screens.
import { useCallback, useState } from 'react';

const KEY = 'titan.customerPanel';
const WIDE = '(min-width: 1280px)';

function initial(): boolean {
  const saved = globalThis.localStorage?.getItem(KEY);
  if (saved === 'open' || saved === 'closed') return saved === 'open';
  return typeof window.matchMedia === 'function' && window.matchMedia(WIDE).matches;
}

export function useCustomerPanel() {
  const [open, setOpen] = useState(initial);
  const set = useCallback((next: boolean) => {
    globalThis.localStorage?.setItem(KEY, next ? 'open' : 'closed');
    setOpen(next);
  }, []);
  return { open, setOpen: set, toggle: () => set(!open) };
}
