// Ids read from the address: a positive safe integer, else null (the screen then says "not found").
export function idFrom(value: string | undefined): number | null {
  if (!value || !/^\d+$/.test(value)) return null;
  const id = Number(value);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}
