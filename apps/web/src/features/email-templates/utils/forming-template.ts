// The model answers the AI template screen with one JSON object ({name, subject, preheader, content});
// while it streams, the text is an unfinished object full of escapes. This reads what has arrived so
// far with partial-json (a maintained parser of truncated JSON) so the screen can show the subject
// and the email forming, not `\n` and `\"`. Anything that is not an object (a model that answers in
// prose) is null: the screen then shows the text as it came.
import { Allow, parse } from 'partial-json';

export const FORMING_FIELDS = ['name', 'subject', 'preheader', 'content'] as const;
export type TFormingTemplate = Partial<Record<(typeof FORMING_FIELDS)[number], string>>;

export function formingTemplate(text: string): TFormingTemplate | null {
  const start = text.indexOf('{');
  if (start === -1) return null;
  // Only a code fence may come before the object (```json is how some models wrap it).
  const before = text.slice(0, start).trim();
  if (before !== '' && !/^```[a-z]*$/i.test(before)) return null;
  const body = text.slice(start).replace(/```\s*$/, '');
  let value: unknown;
  try {
    value = parse(body, Allow.ALL);
  } catch {
    return null;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  const fields: TFormingTemplate = {};
  for (const field of FORMING_FIELDS) {
    const part = (value as Record<string, unknown>)[field];
    if (typeof part === 'string') fields[field] = part;
  }
  return fields;
}
