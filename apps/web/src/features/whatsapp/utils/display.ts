// Small display rules of the WhatsApp log.
import type { TWhatsappLog } from '@titan/contracts';

import { WHATSAPP_STRINGS } from '../strings';

/** What a logged message was: its template, or its WhatsApp type (text, image…). */
export function logKind(log: Pick<TWhatsappLog, 'type' | 'template_name'>): string {
  return log.template_name ? WHATSAPP_STRINGS.logs.template(log.template_name) : log.type;
}
