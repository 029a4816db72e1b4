// What the customer's phone shows: each message of a thread reduced to text, media and the
// buttons the customer can tap, plus the tick state of each business message.
import { renderTemplate, type StoredTemplate, type TemplateSend } from './templates';

export type ThreadButton = {
  kind: 'button_reply' | 'list_reply' | 'button';
  id: string;
  title: string;
  description?: string;
};

export type ThreadMessage = {
  direction: 'in' | 'out';
  wamid: string;
  type: string;
  at: number;
  text: string;
  header?: string;
  footer?: string;
  media?: { id?: string; link?: string; mime_type?: string; filename?: string };
  context?: string;
  buttons?: ThreadButton[];
  links?: { title: string; url?: string }[];
  status?: 'accepted' | 'sent' | 'delivered' | 'read' | 'failed';
  error?: string;
  readByBusiness?: boolean;
};

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (typeof v === 'object' && v !== null ? (v as Obj) : {});
const str = (v: unknown) => (typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v));

/** Monotonic status from the statuses posted so far: failed is terminal, read beats delivered beats sent. */
export function tickState(statuses: string[]): ThreadMessage['status'] {
  if (statuses.includes('failed')) return 'failed';
  for (const s of ['read', 'delivered', 'sent'] as const) if (statuses.includes(s)) return s;
  return 'accepted';
}

export function describeOutbound(
  body: Obj,
  findTemplate: (name: string, language: string) => StoredTemplate | undefined,
) {
  const type = str(body.type || 'text');
  const payload = obj(body[type]);
  const out: Omit<ThreadMessage, 'direction' | 'wamid' | 'at' | 'status'> = { type, text: '' };
  const context = obj(body.context).message_id;
  if (typeof context === 'string') out.context = context;
  switch (type) {
    case 'text':
      out.text = str(payload.body);
      break;
    case 'image':
    case 'video':
    case 'audio':
    case 'document':
    case 'sticker':
      out.text = str(payload.caption);
      out.media = {
        ...(payload.id ? { id: str(payload.id) } : {}),
        ...(payload.link ? { link: str(payload.link) } : {}),
        ...(payload.filename ? { filename: str(payload.filename) } : {}),
      };
      break;
    case 'reaction':
      out.text = str(payload.emoji);
      out.context = str(payload.message_id);
      break;
    case 'location':
      out.text = [payload.name, payload.address, `${str(payload.latitude)}, ${str(payload.longitude)}`]
        .filter(Boolean)
        .map(str)
        .join('\n');
      break;
    case 'contacts':
      out.text = (Array.isArray(body.contacts) ? body.contacts : [])
        .map((c) => str(obj(obj(c).name).formatted_name))
        .join(', ');
      break;
    case 'interactive': {
      const action = obj(payload.action);
      out.text = str(obj(payload.body).text);
      if (payload.header) out.header = str(obj(payload.header).text);
      if (payload.footer) out.footer = str(obj(payload.footer).text);
      if (payload.type === 'button') {
        out.buttons = (Array.isArray(action.buttons) ? action.buttons : []).map((b) => {
          const reply = obj(obj(b).reply);
          return { kind: 'button_reply', id: str(reply.id), title: str(reply.title) };
        });
      } else if (payload.type === 'list') {
        out.buttons = (Array.isArray(action.sections) ? action.sections : []).flatMap((s) =>
          (Array.isArray(obj(s).rows) ? (obj(s).rows as unknown[]) : []).map((r) => {
            const row = obj(r);
            return {
              kind: 'list_reply' as const,
              id: str(row.id),
              title: str(row.title),
              ...(row.description ? { description: str(row.description) } : {}),
            };
          }),
        );
      } else if (payload.type === 'cta_url') {
        const p = obj(action.parameters);
        out.links = [{ title: str(p.display_text), url: str(p.url) }];
      }
      break;
    }
    case 'template': {
      const template = findTemplate(str(payload.name), str(obj(payload.language).code));
      if (!template) {
        out.text = `[template ${str(payload.name)}]`;
        break;
      }
      const rendered = renderTemplate(template, payload as TemplateSend);
      out.text = rendered.body;
      if (rendered.header) out.header = rendered.header;
      if (rendered.footer) out.footer = rendered.footer;
      out.buttons = rendered.buttons
        .filter((b) => b.type === 'QUICK_REPLY')
        .map((b) => ({ kind: 'button', id: b.payload ?? b.text, title: b.text }));
      out.links = rendered.buttons.filter((b) => b.type !== 'QUICK_REPLY').map((b) => ({ title: b.text }));
      break;
    }
    default:
      out.text = `[${type}]`;
  }
  return out;
}

export function describeInbound(message: Obj) {
  const type = str(message.type);
  const payload = obj(message[type]);
  const out: Omit<ThreadMessage, 'direction' | 'wamid' | 'at'> = { type, text: '' };
  const context = obj(message.context).id;
  if (typeof context === 'string') out.context = context;
  switch (type) {
    case 'text':
      out.text = str(payload.body);
      break;
    case 'image':
    case 'video':
    case 'audio':
    case 'document':
    case 'sticker':
      out.text = str(payload.caption);
      out.media = {
        id: str(payload.id),
        mime_type: str(payload.mime_type),
        ...(payload.filename ? { filename: str(payload.filename) } : {}),
      };
      break;
    case 'location':
      out.text = [payload.name, payload.address, `${str(payload.latitude)}, ${str(payload.longitude)}`]
        .filter(Boolean)
        .map(str)
        .join('\n');
      break;
    case 'contacts':
      out.text = (Array.isArray(message.contacts) ? message.contacts : [])
        .map((c) => str(obj(obj(c).name).formatted_name))
        .join(', ');
      break;
    case 'interactive': {
      const chosen = obj(payload[str(payload.type)]);
      out.text = str(chosen.title);
      break;
    }
    case 'button':
      out.text = str(payload.text);
      break;
    case 'reaction':
      out.text = str(payload.emoji) || '(reaction removed)';
      out.context = str(payload.message_id);
      break;
    case 'order':
      out.text = `Order: ${(Array.isArray(payload.product_items) ? payload.product_items : []).map((i) => `${str(obj(i).quantity)} × ${str(obj(i).product_retailer_id)}`).join(', ')}`;
      break;
    default:
      out.text = '(unsupported message)';
  }
  return out;
}
