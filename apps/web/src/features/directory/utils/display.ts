// How a visitor and their recorded form answers read on screen.
import type { TDirectoryVisitor } from '@titan/contracts';

import { DIRECTORY_STRINGS } from '../strings';

export function visitorName(visitor: Pick<TDirectoryVisitor, 'name'>): string {
  return visitor.name?.trim() || DIRECTORY_STRINGS.anonymousCustomer;
}

/** A recorded answer as text: booleans as Yes/No, lists and objects as JSON, nothing as a dash. */
export function fieldValueText(value: unknown): string {
  if (value === null || value === undefined || value === '') return DIRECTORY_STRINGS.none;
  if (typeof value === 'boolean') return value ? DIRECTORY_STRINGS.yes : DIRECTORY_STRINGS.no;
  if (typeof value === 'string' || typeof value === 'number') return String(value);
  return JSON.stringify(value);
}
