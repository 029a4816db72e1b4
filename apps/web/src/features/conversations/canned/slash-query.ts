// The `/query` being typed before the caret: `/` at the start of the text or after a space or a
// line break, then the short code typed so far. Null when the caret is not in one.
export type TSlashQuery = { query: string; start: number; end: number };

export function slashQuery(text: string, caret: number = text.length): TSlashQuery | null {
  const before = text.slice(0, caret);
  const match = /(^|\s)\/([\p{L}\p{N}_-]{0,50})$/u.exec(before);
  if (!match) return null;
  const start = before.length - match[2]!.length - 1;
  return { query: match[2]!, start, end: caret };
}

/** The text with the `/query` replaced by `insert`, and where the caret goes after it. */
export function replaceSlashQuery(text: string, slash: TSlashQuery, insert: string) {
  const next = text.slice(0, slash.start) + insert + text.slice(slash.end);
  return { text: next, caret: slash.start + insert.length };
}
