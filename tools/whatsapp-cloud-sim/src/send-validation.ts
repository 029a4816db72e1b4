// The checks Meta runs on `POST /{phone-number-id}/messages` before accepting a send. Invalid
// input answers code 100 with details naming the field, as Graph does.
import { invalidParameter } from './graph-errors';
import { validateTemplateSend, type StoredTemplate, type TemplateSend } from './templates';

export const SEND_TYPES = [
  'text',
  'image',
  'video',
  'audio',
  'document',
  'sticker',
  'template',
  'reaction',
  'location',
  'interactive',
  'contacts',
] as const;
export type SendType = (typeof SEND_TYPES)[number];

export type ValidSend = { to: string; type: SendType; template?: StoredTemplate };

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function text(value: unknown, field: string, max: number, required = true): void {
  if (value === undefined && !required) return;
  if (typeof value !== 'string' || value.length === 0) throw invalidParameter(`Param ${field} is required`);
  if (value.length > max) throw invalidParameter(`Param ${field} must be at most ${max} characters long.`);
}

function media(type: SendType, value: unknown, mediaExists: (id: string) => boolean): void {
  if (!isObj(value)) throw invalidParameter(`Param ${type} is required`);
  const { id, link, caption, filename } = value;
  if ((id === undefined) === (link === undefined))
    throw invalidParameter(`Param ${type} must have exactly one of ${type}['id'] or ${type}['link']`);
  if (id !== undefined && (typeof id !== 'string' || !mediaExists(id)))
    throw invalidParameter(
      `Param ${type}['id'] is not a valid whatsapp business account media attachment ID`,
    );
  if (link !== undefined && (typeof link !== 'string' || !/^https?:\/\/\S+$/i.test(link)))
    throw invalidParameter(`Param ${type}['link'] must be a valid URL`);
  if (caption !== undefined) {
    if (type === 'audio' || type === 'sticker')
      throw invalidParameter(`Param ${type}['caption'] is not supported for ${type}`);
    text(caption, `${type}['caption']`, 1024);
  }
  if (filename !== undefined && (type !== 'document' || typeof filename !== 'string'))
    throw invalidParameter(`Param ${type}['filename'] is only valid for documents`);
}

function interactive(value: unknown): void {
  if (!isObj(value)) throw invalidParameter('Param interactive is required');
  const kinds = [
    'button',
    'list',
    'cta_url',
    'product',
    'product_list',
    'flow',
    'location_request_message',
    'call_permission_request',
  ];
  if (typeof value.type !== 'string' || !kinds.includes(value.type))
    throw invalidParameter(`Param interactive['type'] must be one of {${kinds.join(', ')}}`);
  const action = value.action;
  if (value.type !== 'product' && !isObj(value.body))
    throw invalidParameter("Param interactive['body'] is required");
  if (isObj(value.body))
    text(value.body.text, "interactive['body']['text']", value.type === 'list' ? 4096 : 1024);
  if (!isObj(action)) throw invalidParameter("Param interactive['action'] is required");
  if (value.type === 'button') {
    const buttons = action.buttons;
    if (!Array.isArray(buttons) || buttons.length < 1 || buttons.length > 3)
      throw invalidParameter("Param interactive['action']['buttons'] must have between 1 and 3 elements");
    buttons.forEach((b: unknown, i) => {
      const reply = isObj(b) ? b.reply : undefined;
      if (!isObj(b) || b.type !== 'reply' || !isObj(reply))
        throw invalidParameter(`Param interactive['action']['buttons'][${i}]['type'] must be reply`);
      text(reply.id, `interactive['action']['buttons'][${i}]['reply']['id']`, 256);
      text(reply.title, `interactive['action']['buttons'][${i}]['reply']['title']`, 20);
    });
  }
  if (value.type === 'list') {
    text(action.button, "interactive['action']['button']", 20);
    const sections = action.sections;
    if (!Array.isArray(sections) || sections.length < 1 || sections.length > 10)
      throw invalidParameter("Param interactive['action']['sections'] must have between 1 and 10 elements");
    const rows = sections.flatMap((s: unknown) => (isObj(s) && Array.isArray(s.rows) ? s.rows : []));
    if (rows.length < 1 || rows.length > 10)
      throw invalidParameter(
        "Param interactive['action']['sections'] must have between 1 and 10 rows in total",
      );
    rows.forEach((r: unknown, i) => {
      if (!isObj(r))
        throw invalidParameter(`Param interactive['action']['sections']['rows'][${i}] is invalid`);
      text(r.id, `interactive['action']['sections']['rows'][${i}]['id']`, 200);
      text(r.title, `interactive['action']['sections']['rows'][${i}]['title']`, 24);
      text(r.description, `interactive['action']['sections']['rows'][${i}]['description']`, 72, false);
    });
  }
  if (value.type === 'cta_url') {
    const p = action.parameters;
    if (!isObj(p)) throw invalidParameter("Param interactive['action']['parameters'] is required");
    text(p.display_text, "interactive['action']['parameters']['display_text']", 20);
    if (typeof p.url !== 'string' || !/^https?:\/\//i.test(p.url))
      throw invalidParameter("Param interactive['action']['parameters']['url'] must be a valid URL");
  }
}

export function validateSend(
  body: Obj,
  deps: { templates: StoredTemplate[]; mediaExists: (id: string) => boolean },
): ValidSend {
  if (body.recipient_type !== undefined && body.recipient_type !== 'individual')
    throw invalidParameter('Param recipient_type must be one of {INDIVIDUAL}');
  if (typeof body.to !== 'string' || !/^\+?\d{6,15}$/.test(body.to))
    throw invalidParameter("Param to must be a phone number's digits (optionally with a leading +)");
  const to = body.to.replace(/^\+/, '');
  const type = (body.type ?? 'text') as SendType;
  if (typeof type !== 'string' || !SEND_TYPES.includes(type))
    throw invalidParameter(
      `Param type must be one of {${SEND_TYPES.map((t) => t.toUpperCase()).join(', ')}} - got "${String(body.type)}".`,
    );
  if (
    body.context !== undefined &&
    (!isObj(body.context) || typeof body.context.message_id !== 'string' || !body.context.message_id)
  )
    throw invalidParameter("Param context['message_id'] is required");
  const payload = body[type];
  switch (type) {
    case 'text':
      if (!isObj(payload)) throw invalidParameter('Param text is required');
      text(payload.body, "text['body']", 4096);
      if (payload.preview_url !== undefined && typeof payload.preview_url !== 'boolean')
        throw invalidParameter("Param text['preview_url'] must be a boolean");
      return { to, type };
    case 'image':
    case 'video':
    case 'audio':
    case 'document':
    case 'sticker':
      media(type, payload, deps.mediaExists);
      return { to, type };
    case 'reaction':
      if (!isObj(payload)) throw invalidParameter('Param reaction is required');
      text(payload.message_id, "reaction['message_id']", 256);
      if (typeof payload.emoji !== 'string') throw invalidParameter("Param reaction['emoji'] is required");
      return { to, type };
    case 'location':
      if (!isObj(payload)) throw invalidParameter('Param location is required');
      if (typeof payload.latitude !== 'number' && typeof payload.latitude !== 'string')
        throw invalidParameter("Param location['latitude'] is required");
      if (typeof payload.longitude !== 'number' && typeof payload.longitude !== 'string')
        throw invalidParameter("Param location['longitude'] is required");
      if (Number.isNaN(Number(payload.latitude)) || Math.abs(Number(payload.latitude)) > 90)
        throw invalidParameter("Param location['latitude'] must be between -90 and 90");
      if (Number.isNaN(Number(payload.longitude)) || Math.abs(Number(payload.longitude)) > 180)
        throw invalidParameter("Param location['longitude'] must be between -180 and 180");
      return { to, type };
    case 'contacts':
      if (!Array.isArray(payload) || payload.length === 0)
        throw invalidParameter('Param contacts is required');
      payload.forEach((c: unknown, i) => {
        if (!isObj(c) || !isObj(c.name)) throw invalidParameter(`Param contacts[${i}]['name'] is required`);
        text(c.name.formatted_name, `contacts[${i}]['name']['formatted_name']`, 1024);
      });
      return { to, type };
    case 'interactive':
      interactive(payload);
      return { to, type };
    case 'template':
      if (!isObj(payload)) throw invalidParameter('Param template is required');
      return {
        to,
        type,
        template: validateTemplateSend(deps.templates, payload as TemplateSend, deps.mediaExists),
      };
    default: {
      const unreachable: never = type;
      throw invalidParameter(`Param type ${String(unreachable)} is not supported`);
    }
  }
}
