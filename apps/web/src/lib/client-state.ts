// Resets every piece of client state (zustand stores, the query cache) to its initial values, as logout
// requires (spec section 4). Each owner registers its own reset, so this module knows none of them.
const resets = new Set<() => void>();

/** Registers a reset; answers the function that unregisters it. */
export function registerClientStateReset(reset: () => void): () => void {
  resets.add(reset);
  return () => {
    resets.delete(reset);
  };
}

export function resetClientState(): void {
  for (const reset of resets) {
    try {
      reset();
    } catch (failure) {
      console.error('A client state reset failed', failure);
    }
  }
}
