// Composer limits and pickers (spec sections 2, 5 and 9): the text box's maximum height and the file
// types each WhatsApp attach kind accepts (documents take any type).
export const COMPOSER_MAX_HEIGHT_PX = 150;

export type TWhatsAppAttachKind = 'image' | 'video' | 'audio' | 'document';

export const WHATSAPP_ACCEPT: Record<TWhatsAppAttachKind, string> = {
  image: 'image/png,image/jpeg,image/jpg,image/webp',
  video: 'video/3gpp,video/avi,video/x-msvideo,video/x-flv,video/x-matroska,video/quicktime,video/mp4',
  // aac, mpeg, ogg, wav, mp4, m4a, opus (spec section 5), with the types browsers give m4a and wav.
  audio:
    'audio/aac,audio/mpeg,audio/ogg,audio/wav,audio/x-wav,audio/mp4,audio/m4a,audio/x-m4a,audio/opus,.m4a,.opus',
  document: '',
};
