// A WhatsApp campaign's content as the composer edits it: the request's `whatsapp_template`.
import type { TWhatsappTemplateContent } from '@titan/contracts';

export type TWhatsappDraft = TWhatsappTemplateContent;
export const EMPTY_WHATSAPP: TWhatsappDraft = { name: '', language: '', variables: {}, header_media: null };
