// Meta-shaped webhook payloads: the envelope, inbound messages of every type, and statuses.
import { createHash } from 'node:crypto';
import { webhookError } from './graph-errors';
import type { StoredMedia } from './media';

export type InboundType =
  | 'text'
  | 'image'
  | 'video'
  | 'audio'
  | 'document'
  | 'sticker'
  | 'location'
  | 'contacts'
  | 'interactive'
  | 'button'
  | 'reaction'
  | 'order'
  | 'unsupported';

export const INBOUND_TYPES: readonly InboundType[] = [
  'text',
  'image',
  'video',
  'audio',
  'document',
  'sticker',
  'location',
  'contacts',
  'interactive',
  'button',
  'reaction',
  'order',
  'unsupported',
];

export type InboundSpec = {
  from: string;
  name?: string;
  type: InboundType;
  /** Text body; caption for media; button text; emoji for a reaction (omitted or empty = removed). */
  text?: string;
  media?: { bytes: Buffer; mime_type: string; filename?: string; voice?: boolean };
  context?: { message_id: string; forwarded?: boolean };
  location?: { latitude: number; longitude: number; name?: string; address?: string };
  /** interactive: the button or list row chosen; button: `id` becomes the payload. */
  reply?: { kind: 'button_reply' | 'list_reply'; id: string; title: string; description?: string };
  reactTo?: string;
  /** contacts: the cards shared (default one sample card). */
  contacts?: Record<string, unknown>[];
  /** order: the order sent from a catalog (default a one-item sample order). */
  order?: { catalog_id: string; text?: string; product_items: Record<string, unknown>[] };
  timestamp?: number;
  id?: string;
  omitWaId?: boolean;
};

export type Account = { wabaId: string; phoneNumberId: string; displayPhoneNumber: string };

export function envelope(account: Account, value: Record<string, unknown>) {
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: account.wabaId,
        changes: [
          {
            value: {
              messaging_product: 'whatsapp',
              metadata: {
                display_phone_number: account.displayPhoneNumber,
                phone_number_id: account.phoneNumberId,
              },
              ...value,
            },
            field: 'messages',
          },
        ],
      },
    ],
  };
}

/** A business-scoped user id, stable per phone number, for the newer payload shape. */
export const businessScopedId = (waId: string) =>
  `US.${BigInt(`0x${createHash('sha256').update(waId).digest('hex').slice(0, 16)}`)
    .toString()
    .padStart(20, '0')}`;

export function inboundContact(spec: InboundSpec, name: string) {
  return spec.omitWaId
    ? { profile: { name }, user_id: businessScopedId(spec.from) }
    : { profile: { name }, wa_id: spec.from };
}

/** One `messages[]` item; `media` is the stored media (with its id) for media types. */
export function inboundMessage(
  spec: InboundSpec,
  ids: { id: string; timestamp: number; businessNumber: string },
  media?: { id: string; stored: StoredMedia; voice: boolean },
): Record<string, unknown> {
  const base: Record<string, unknown> = {
    ...(spec.omitWaId ? { from_user_id: businessScopedId(spec.from) } : { from: spec.from }),
    id: ids.id,
    timestamp: String(ids.timestamp),
  };
  if (spec.context) {
    base.context = {
      ...(spec.context.message_id ? { from: ids.businessNumber, id: spec.context.message_id } : {}),
      ...(spec.context.forwarded ? { forwarded: true } : {}),
    };
  }
  const caption = spec.text ? { caption: spec.text } : {};
  const mediaFields = media
    ? { mime_type: media.stored.mime_type, sha256: media.stored.sha256, id: media.id }
    : {};
  switch (spec.type) {
    case 'text':
      return { ...base, type: 'text', text: { body: spec.text ?? '' } };
    case 'image':
    case 'video':
      return { ...base, type: spec.type, [spec.type]: { ...caption, ...mediaFields } };
    case 'document':
      return {
        ...base,
        type: 'document',
        document: { ...caption, filename: media?.stored.filename ?? 'document', ...mediaFields },
      };
    case 'audio':
      return { ...base, type: 'audio', audio: { ...mediaFields, voice: media?.voice ?? false } };
    case 'sticker':
      return { ...base, type: 'sticker', sticker: { ...mediaFields, animated: false } };
    case 'location':
      return {
        ...base,
        type: 'location',
        location: spec.location ?? {
          latitude: 52.520008,
          longitude: 13.404954,
          name: 'Alexanderplatz',
          address: 'Alexanderplatz, 10178 Berlin',
        },
      };
    case 'contacts':
      return {
        ...base,
        type: 'contacts',
        contacts: spec.contacts ?? [
          {
            name: {
              formatted_name: spec.text ?? 'Grace Hopper',
              first_name: (spec.text ?? 'Grace Hopper').split(' ')[0],
            },
            phones: [{ phone: '+1 555 010 9999', wa_id: '15550109999', type: 'CELL' }],
          },
        ],
      };
    case 'interactive': {
      const reply = spec.reply ?? { kind: 'button_reply' as const, id: 'yes', title: spec.text ?? 'Yes' };
      const chosen =
        reply.kind === 'list_reply'
          ? {
              id: reply.id,
              title: reply.title,
              ...(reply.description ? { description: reply.description } : {}),
            }
          : { id: reply.id, title: reply.title };
      return { ...base, type: 'interactive', interactive: { type: reply.kind, [reply.kind]: chosen } };
    }
    case 'button': {
      const text = spec.text ?? spec.reply?.title ?? 'Talk to us';
      return { ...base, type: 'button', button: { payload: spec.reply?.id ?? text, text } };
    }
    case 'reaction':
      return {
        ...base,
        type: 'reaction',
        reaction: {
          message_id: spec.reactTo ?? spec.context?.message_id ?? '',
          ...(spec.text ? { emoji: spec.text } : {}),
        },
      };
    case 'order':
      return {
        ...base,
        type: 'order',
        order: spec.order ?? {
          catalog_id: '1000000000000001',
          text: spec.text ?? 'Please deliver before noon',
          product_items: [{ product_retailer_id: 'SKU-1', quantity: 2, item_price: 12.5, currency: 'EUR' }],
        },
      };
    case 'unsupported':
      return {
        ...base,
        type: 'unsupported',
        errors: [
          webhookError(131051, {
            title: 'Message type unknown',
            message: 'Message type unknown',
            details: 'Message type is currently not supported.',
          }),
        ],
      };
    default: {
      const unreachable: never = spec.type;
      throw new Error(`unknown inbound type ${String(unreachable)}`);
    }
  }
}
