// Leaving for an authorization server (a full-page redirect); one place, so tests can watch it.
export const leaveFor = {
  go(url: string): void {
    window.location.assign(url);
  },
};
