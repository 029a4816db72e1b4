// Step 1 of the import: a CSV file dropped on the zone or chosen with the file picker.
import { FileUpIcon } from 'lucide-react';
import { useId, useRef, useState, type DragEvent } from 'react';

import { Button } from '../../../components/ui/button';
import { cn } from '../../../lib/utils';
import { IMPORT_STRINGS as S } from '../strings';

export function FileDrop({ onFile, busy }: { onFile: (file: File) => void; busy: boolean }) {
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const hintId = useId();

  const take = (files: FileList | null | undefined) => {
    const file = files?.[0];
    if (file) onFile(file);
  };
  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setOver(false);
    if (!busy) take(event.dataTransfer?.files);
  };

  return (
    <div
      role="group"
      aria-label={S.dropLabel}
      aria-describedby={hintId}
      data-dragging={over || undefined}
      onDragOver={(event) => {
        event.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={onDrop}
      className={cn(
        'flex flex-col items-center gap-3 rounded-lg border-2 border-dashed p-10 text-center transition-colors',
        over ? 'border-primary bg-primary/5' : 'border-muted-foreground/25',
      )}
    >
      <FileUpIcon aria-hidden="true" className="size-8 text-muted-foreground" />
      <p className="font-medium">{S.dropTitle}</p>
      <p id={hintId} className="text-sm text-muted-foreground">
        {S.dropHint}
      </p>
      <Button type="button" variant="outline" disabled={busy} onClick={() => input.current?.click()}>
        {busy ? S.reading : S.chooseFile}
      </Button>
      <input
        ref={input}
        type="file"
        accept=".csv,text/csv,text/plain"
        aria-label={S.chooseFile}
        className="sr-only"
        tabIndex={-1}
        onChange={(event) => {
          take(event.target.files);
          // The same file can be chosen again after an error.
          event.target.value = '';
        }}
      />
    </div>
  );
}
