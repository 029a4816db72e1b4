// Code to copy into a website: shown as is, with a copy button.
import { CopyButton } from '../../../components/copy-button';

export function CodeBlock({ code, label, copyLabel }: { code: string; label: string; copyLabel?: string }) {
  return (
    <div className="grid gap-2">
      <pre tabIndex={0} className="overflow-x-auto rounded-md bg-muted p-3 text-xs leading-relaxed">
        <code aria-label={label}>{code}</code>
      </pre>
      <div>
        <CopyButton value={code} label={copyLabel} />
      </div>
    </div>
  );
}
