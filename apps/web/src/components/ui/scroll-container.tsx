// A sideways-scrolling container for content wider than a phone (tables, code): while more content
// lies past an edge a shadow on that edge says so, and the container takes keyboard focus so it can
// be scrolled without a mouse.
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';

import { cn } from '../../lib/utils';

export function ScrollContainer({ className, children }: { className?: string; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const [edges, setEdges] = useState({ left: false, right: false });
  const update = useCallback(() => {
    const el = ref.current;
    if (!el) return;
    const left = el.scrollLeft > 1;
    const right = el.scrollLeft + el.clientWidth < el.scrollWidth - 1;
    setEdges((prev) => (prev.left === left && prev.right === right ? prev : { left, right }));
  }, []);
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    update();
    const observer = new ResizeObserver(update);
    observer.observe(el);
    if (el.firstElementChild) observer.observe(el.firstElementChild);
    return () => observer.disconnect();
  }, [update]);
  const scrollable = edges.left || edges.right;
  return (
    // Zero width and a full-width minimum: the content's width never widens the grids and flex
    // columns around it (which would widen the page on a phone); it scrolls in here instead.
    <div data-slot="scroll-container" className="relative w-0 min-w-full">
      <div
        ref={ref}
        onScroll={update}
        tabIndex={scrollable ? 0 : undefined}
        data-scrollable={scrollable ? 'true' : undefined}
        // Positioned, so visually hidden (absolute) labels in the content scroll and clip with it.
        className={cn(
          'relative w-full overflow-x-auto rounded-sm focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none',
          className,
        )}
      >
        {children}
      </div>
      {edges.left ? (
        <div
          aria-hidden="true"
          className="pointer-events-none absolute inset-y-0 left-0 w-6 bg-gradient-to-r from-foreground/15 to-transparent"
        />
      ) : null}
      {edges.right ? (
        <div
          aria-hidden="true"
          className="pointer-events-none absolute inset-y-0 right-0 w-6 bg-gradient-to-l from-foreground/15 to-transparent"
        />
      ) : null}
    </div>
  );
}
