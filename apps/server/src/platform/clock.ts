// The runtime's clock: what business hours, away replies and SLA alerts read as "now". One mutable
// object per runtime, so a test can move it (rt.services.clock.now = () => …) and every part that
// holds it sees the same time.
export type Clock = { now(): Date };

export const systemClock = (): Clock => ({ now: () => new Date() });
