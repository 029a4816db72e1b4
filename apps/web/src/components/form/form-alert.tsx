// The form-level message: non_field_errors, timeouts and other answers not tied to a field.
import { CircleAlertIcon } from 'lucide-react';
import type { ReactNode } from 'react';

import { Alert, AlertDescription } from '../ui/alert';

export function FormAlert({ message, children }: { message: string | undefined; children?: ReactNode }) {
  if (!message) return null;
  return (
    <Alert variant="destructive">
      <CircleAlertIcon aria-hidden="true" />
      <AlertDescription>
        <p>{message}</p>
        {children}
      </AlertDescription>
    </Alert>
  );
}
