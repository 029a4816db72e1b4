// What a section of a screen shows while its data loads, or when loading failed (with a retry).
import { apiErrorMessage } from '../lib/api-errors';
import { LOAD_STATE_STRINGS } from '../lib/strings';
import { Button } from './ui/button';
import { Spinner } from './ui/spinner';

export function SectionLoading() {
  return (
    <div className="flex justify-center p-6">
      <Spinner className="size-6 text-muted-foreground" />
    </div>
  );
}

export function SectionError({
  error,
  onRetry,
  fallback = LOAD_STATE_STRINGS.loadFailed,
}: {
  error: unknown;
  onRetry: () => void;
  fallback?: string;
}) {
  return (
    <div role="alert" className="flex flex-col items-start gap-2 p-2 text-sm">
      <p>{apiErrorMessage(error, fallback)}</p>
      <Button variant="outline" size="sm" onClick={onRetry}>
        {LOAD_STATE_STRINGS.retry}
      </Button>
    </div>
  );
}
