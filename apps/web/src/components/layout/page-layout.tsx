// One page layout for every screen of the workspace: the same width, left edge, padding, heading
// style and spacing in every area. `wide` is for editors that show a form beside a preview.
import type { ReactNode } from 'react';

import { cn } from '../../lib/utils';

const PAGE_HEADING_CLASS = 'text-2xl font-semibold tracking-tight break-words';

export function PageLayout({
  title,
  description,
  actions,
  width = 'default',
  className,
  children,
  ...props
}: {
  /** The page's h1; omit when the page renders its own heading block. */
  title?: ReactNode;
  description?: ReactNode;
  /** Buttons beside the heading; they wrap below it on a phone. */
  actions?: ReactNode;
  width?: 'default' | 'wide';
  className?: string;
  children?: ReactNode;
} & Omit<React.ComponentProps<'section'>, 'title'>) {
  return (
    <section
      className={cn(
        'mx-auto flex w-full min-w-0 flex-col gap-6 p-4 md:p-6',
        width === 'wide' ? 'max-w-7xl' : 'max-w-6xl',
        className,
      )}
      {...props}
    >
      {title !== undefined ? (
        <header className="flex flex-wrap items-start justify-between gap-3">
          <div className="flex min-w-0 flex-col gap-1">
            <h1 className={PAGE_HEADING_CLASS}>{title}</h1>
            {description ? <p className="text-sm text-muted-foreground">{description}</p> : null}
          </div>
          {actions ? <div className="flex flex-wrap items-center gap-2">{actions}</div> : null}
        </header>
      ) : null}
      {children}
    </section>
  );
}
