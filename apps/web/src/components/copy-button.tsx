// Copies a value to the clipboard and says so.
import { CheckIcon, CopyIcon } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';

import { COPY_STRINGS } from '../lib/strings';
import { Button } from './ui/button';

export function CopyButton({
  value,
  label = COPY_STRINGS.copy,
  'aria-label': ariaLabel,
}: {
  value: string;
  label?: string;
  /** Names the button when several copy buttons share one visible label (a table of values). */
  'aria-label'?: string;
}) {
  const [copied, setCopied] = useState(false);
  return (
    <Button
      type="button"
      aria-label={ariaLabel}
      variant="outline"
      size="sm"
      onClick={() => {
        // Absent outside secure contexts, whatever the DOM types say.
        const clipboard = navigator.clipboard as Clipboard | undefined;
        (clipboard ? clipboard.writeText(value) : Promise.reject(new Error('No clipboard')))
          .then(() => {
            setCopied(true);
            toast.success(COPY_STRINGS.copied);
          })
          .catch(() => toast.error(COPY_STRINGS.failed));
      }}
    >
      {copied ? <CheckIcon aria-hidden="true" /> : <CopyIcon aria-hidden="true" />}
      {label}
    </Button>
  );
}
