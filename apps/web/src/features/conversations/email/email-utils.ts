// Small rules of email conversations in the inbox. The cc / bcc boxes take addresses separated by commas, semicolons or spaces (as pasted from a mail
// client, "Name <a@b.c>" too); each is checked as the API checks it.
import type { TMessage } from '@titan/contracts';
import { z } from 'zod';

const ADDRESS = z.email();

export function parseAddresses(text: string): { addresses: string[]; invalid: string[] } {
  const parts = text
    .split(/[,;\n]+/)
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => /<([^>]+)>/.exec(part)?.[1]?.trim() ?? part);
  const addresses: string[] = [];
  const invalid: string[] = [];
  for (const part of parts) {
    if (!ADDRESS.safeParse(part).success) invalid.push(part);
    else if (!addresses.includes(part.toLowerCase())) addresses.push(part.toLowerCase());
  }
  return { addresses, invalid };
}

/** The subject a reply goes with unless staff write their own: the conversation's, answered. */
export const replySubject = (title: string) =>
  /^re\s*:/i.test(title) ? title : `Re: ${title || '(no subject)'}`;

/** True for a message an email conversation carries (inbound mail or a staff reply by email). */
export function isEmailMessage(message: Pick<TMessage, 'meta_data'>): boolean {
  return typeof message.meta_data.message_id === 'string' && 'subject' in message.meta_data;
}
