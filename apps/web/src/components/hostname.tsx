// A hostname or dotted DNS name that wraps at its dots (never a letter a line): a break opportunity
// after each dot, and a long label still wraps rather than overflowing.
import { Fragment } from 'react';

import { cn } from '../lib/utils';

export function Hostname({ value, className }: { value: string; className?: string }) {
  const parts = value.split('.');
  return (
    <span className={cn('break-words', className)}>
      {parts.map((part, i) => (
        <Fragment key={i}>
          {part}
          {i < parts.length - 1 ? (
            <>
              .<wbr />
            </>
          ) : null}
        </Fragment>
      ))}
    </span>
  );
}
