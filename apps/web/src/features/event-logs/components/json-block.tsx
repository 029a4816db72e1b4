// A JSON document pretty-printed in a collapsible block (closed until asked for).
export function JsonBlock({ title, value, empty }: { title: string; value: unknown; empty: string }) {
  return (
    <details className="group rounded-lg border">
      <summary className="cursor-pointer px-4 py-2 text-sm font-medium select-none">{title}</summary>
      {value === null || value === undefined ? (
        <p className="border-t px-4 py-3 text-sm text-muted-foreground">{empty}</p>
      ) : (
        <pre
          aria-label={title}
          tabIndex={0}
          className="max-h-96 overflow-auto border-t bg-muted/50 px-4 py-3 font-mono text-xs whitespace-pre"
        >
          {JSON.stringify(value, null, 2)}
        </pre>
      )}
    </details>
  );
}
