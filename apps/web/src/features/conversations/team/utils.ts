// The team inbox's plain helpers (no components): names, views, mentions, internal lines.
import type { TMember, TMessage } from '@titan/contracts';

export const memberName = (m: TMember) => `${m.user.first_name} ${m.user.last_name}`.trim() || m.user.email;

/** A view: a filter on the assignee or the chat group ('none' = unassigned / no group). */
export type TInboxView = { assignee?: string; assigned_chat_group?: string; label?: string };

export const ALL_VIEW: TInboxView = {};

/** A view's list query parameters (the label is for the screen only). */
export function viewParams(view: TInboxView): { assignee?: string; assigned_chat_group?: string } {
  return {
    ...(view.assignee ? { assignee: view.assignee } : {}),
    ...(view.assigned_chat_group ? { assigned_chat_group: view.assigned_chat_group } : {}),
  };
}

/** The `@query` being typed at the end of the text, or null. */
export function mentionQuery(text: string): string | null {
  const match = /(?:^|\s)@([^\s@[\]()]{0,30})$/.exec(text);
  return match ? match[1]! : null;
}

export const isInternalMessage = (m: Pick<TMessage, 'message_type'>) =>
  m.message_type === 'note' || m.message_type === 'activity';

/** `@[Name](member:<id>)`, as the note composer writes a mention. */
export const MENTION = /@\[([^\]\n]{1,200})\]\(member:(\d{1,18})\)/g;
