// The full-screen loading indicator shown while a lazily loaded screen arrives (spec section 2).
import { cn } from '../lib/utils';
import { Spinner } from './ui/spinner';

export function FullScreenLoader({ className }: { className?: string }) {
  return (
    <div className={cn('fixed inset-0 z-50 flex items-center justify-center bg-background', className)}>
      <Spinner className="size-8 text-muted-foreground" />
    </div>
  );
}
