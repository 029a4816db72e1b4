// A library loaded on first use instead of at start-up. For large libraries most processes never
// call (passkeys, MCP, S3, inbound mail's parsers): each loaded at start-up stayed in the heap every
// full garbage collection marks — ~40 MB of Titan's ~87 MB at rest — whatever the process did.
// The import runs once; every caller waits on the same promise.
export function lazy<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => {
    loading ??= load().catch((err: unknown) => {
      loading = undefined; // a failed load (a missing optional file) is tried again next time
      throw err;
    });
    return loading;
  };
}
