// The business's time zone as the forms offer it: the IANA zones the browser lists
// (`Intl.supportedValuesOf('timeZone')`, UTC first) and the browser's own zone as the default.
import { isSupportedTimeZone, supportedTimeZones } from '@titan/contracts';

/** The zone this browser runs in, when the server would take it; else UTC. */
export function browserTimeZone(): string {
  try {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    return zone && isSupportedTimeZone(zone) ? zone : 'UTC';
  } catch {
    return 'UTC';
  }
}

/** Options for a time zone select, with `current` kept even when this browser does not list it. */
export function timeZoneOptions(current?: string | null): { value: string; label: string }[] {
  const zones = supportedTimeZones();
  if (current && !zones.includes(current)) zones.unshift(current);
  return zones.map((zone) => ({ value: zone, label: zone.replaceAll('_', ' ') }));
}
