// Leaving for an authorization server (a full-page redirect); one place, so tests can watch it.
export const leaveFor = {
  go(url: string): void {
    window.location.assign(url);
  },
};

/** Starting OAuth: ask the server for the authorization URL, then leave for it (errors in a toast). */
export function startOAuth(
  connect: {
    mutate: (
      id: number,
      handlers: { onSuccess: (url: string) => void; onError: (e: unknown) => void },
    ) => void;
  },
  id: number,
  onError: (error: unknown) => void,
): void {
  connect.mutate(id, { onSuccess: (url) => leaveFor.go(url), onError });
}
