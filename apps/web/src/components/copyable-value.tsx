// A value to paste elsewhere (a webhook URL, a token): labelled, shown in full, with a copy button.
import { CopyButton } from './copy-button';

export function CopyableValue({
  label,
  value,
  copyLabel,
}: {
  label: string;
  value: string;
  copyLabel: string;
}) {
  return (
    <div className="grid gap-1.5">
      <p className="text-sm font-medium">{label}</p>
      <div className="flex flex-wrap items-center gap-2">
        <code aria-label={label} className="rounded-md bg-muted px-3 py-1.5 font-mono text-sm break-all">
          {value}
        </code>
        <CopyButton value={value} label={copyLabel} />
      </div>
    </div>
  );
}
