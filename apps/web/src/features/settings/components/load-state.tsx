// What a settings section shows while its data loads or when loading failed.
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { apiErrorMessage } from '../../../lib/api-errors';
import { SETTINGS_STRINGS } from '../strings';

export function SectionLoading() {
  return (
    <div className="flex justify-center p-6">
      <Spinner className="size-6 text-muted-foreground" />
    </div>
  );
}

export function SectionError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  return (
    <div role="alert" className="flex flex-col items-start gap-2 p-2 text-sm">
      <p>{apiErrorMessage(error, SETTINGS_STRINGS.loadFailed)}</p>
      <Button variant="outline" size="sm" onClick={onRetry}>
        {SETTINGS_STRINGS.retry}
      </Button>
    </div>
  );
}
