// Opens a search result in context: with ?message=<id> in the URL, once that message is on screen
// it is scrolled into view and highlighted for a few seconds.
import { useEffect } from 'react';
import { useSearchParams } from 'react-router';

export function useScrollToMessage(loadedCount: number) {
  const [params] = useSearchParams();
  const id = params.get('message');
  useEffect(() => {
    if (!id) return;
    const element = document.querySelector<HTMLElement>(`[data-message-id="${CSS.escape(id)}"]`);
    if (!element) return;
    element.scrollIntoView?.({ block: 'center' });
    element.dataset.searchHit = 'true';
    element.classList.add('ring-2', 'ring-yellow-400', 'rounded-md');
    const timer = setTimeout(() => {
      element.classList.remove('ring-2', 'ring-yellow-400', 'rounded-md');
      delete element.dataset.searchHit;
    }, 4000);
    return () => clearTimeout(timer);
  }, [id, loadedCount]);
}
