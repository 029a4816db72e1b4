// Sample values for the variables the template reads, and optionally a customer to preview as:
// the preview renders with them (they are not saved).
import { useId } from 'react';

import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { EMAIL_TEMPLATE_STRINGS as S } from '../strings';

export function VariablesPanel({
  variables,
  values,
  onChange,
  customerId,
  onCustomerIdChange,
}: {
  variables: string[];
  values: Record<string, string>;
  onChange: (path: string, value: string) => void;
  customerId: string;
  onCustomerIdChange: (value: string) => void;
}) {
  const id = useId();
  const editable = variables.filter((v) => !v.startsWith('business.') && v !== 'business');
  return (
    <section aria-label={S.variablesTitle} className="grid gap-3 rounded-md border p-3">
      <div>
        <h2 className="text-base font-semibold">{S.variablesTitle}</h2>
        <p className="text-xs text-muted-foreground">{S.variablesDescription}</p>
      </div>
      {editable.length === 0 ? <p className="text-sm text-muted-foreground">{S.noVariables}</p> : null}
      {editable.map((path, i) => (
        <div key={path} className="grid gap-1">
          <Label htmlFor={`${id}-${i}`} className="font-mono text-xs">
            {path}
          </Label>
          <Input
            id={`${id}-${i}`}
            value={values[path] ?? ''}
            onChange={(e) => onChange(path, e.target.value)}
          />
        </div>
      ))}
      <div className="grid gap-1">
        <Label htmlFor={`${id}-customer`}>{S.customerId}</Label>
        <Input
          id={`${id}-customer`}
          inputMode="numeric"
          value={customerId}
          onChange={(e) => onCustomerIdChange(e.target.value.replace(/\D/g, ''))}
          aria-describedby={`${id}-customer-hint`}
        />
        <p id={`${id}-customer-hint`} className="text-xs text-muted-foreground">
          {S.customerIdHint}
        </p>
      </div>
    </section>
  );
}
