/**
 * A fixed-offset zone whose wall clock reads `hour` o'clock at `now` (Etc/GMT signs are inverted):
 * tests that depend on a recipient's clock (quiet hours, local send times) pin it with this.
 */
export function zoneAt(hour: number, now: Date = new Date()): string {
  const utc = now.getUTCHours();
  let offset = (((hour - utc) % 24) + 24) % 24;
  if (offset > 14) offset -= 24;
  return offset === 0 ? 'Etc/GMT' : `Etc/GMT${offset > 0 ? '-' : '+'}${Math.abs(offset)}`;
}
