// The body of a WhatsApp message (spec section 2), read from meta_data, which holds the WhatsApp
// payload: text (text.body); template (template.components: a header of text, an image, a video or
// a document, body, footer, and buttons of phone number, URL or quick reply); image, video, audio and
// document ({id, caption, filename}); button (button.text). Any other type says "Unsupported message type". The payload is
// read defensively: a field that is missing or of another shape is simply not shown.
import type { TMessage } from '@titan/contracts';
import { ExternalLinkIcon, FileTextIcon, PhoneIcon, ReplyIcon } from 'lucide-react';
import type { ReactNode } from 'react';

import { CONVERSATIONS_STRINGS as S } from '../strings';
import { WhatsAppMedia, type TMediaKind } from './whatsapp-media';

type TRecord = Record<string, unknown>;

function asRecord(value: unknown): TRecord | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as TRecord) : null;
}

function asString(value: unknown): string | null {
  return typeof value === 'string' && value.length > 0 ? value : null;
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function Text({ children }: { children: ReactNode }) {
  return <p className="text-sm break-words whitespace-pre-wrap">{children}</p>;
}

function Media({ kind, payload }: { kind: TMediaKind; payload: TRecord | null }) {
  const id = asString(payload?.id);
  const caption = asString(payload?.caption);
  const fileName = asString(payload?.filename);
  return (
    <div className="flex flex-col gap-1.5">
      {id ? <WhatsAppMedia kind={kind} mediaId={id} fileName={fileName} /> : <Text>{S.mediaFailed}</Text>}
      {caption ? <Text>{caption}</Text> : null}
    </div>
  );
}

/** The text of a template component: its own text, or its text parameters in order. */
function componentText(component: TRecord): string | null {
  const own = asString(component.text);
  if (own) return own;
  const parts = asArray(component.parameters)
    .map((p) => asString(asRecord(p)?.text))
    .filter((t): t is string => t !== null);
  return parts.length > 0 ? parts.join(' ') : null;
}

const HEADER_MEDIA: readonly TMediaKind[] = ['image', 'video', 'document'];

/** A template's header: its text, or its image, video or document (an uploaded id or a link). */
function TemplateHeader({ component }: { component: TRecord }) {
  const format = asString(component.format)?.toLowerCase();
  const param = asArray(component.parameters)
    .map(asRecord)
    .find((p) => HEADER_MEDIA.includes(p?.type as TMediaKind));
  const kind = HEADER_MEDIA.find((k) => k === format || k === param?.type || asRecord(component[k]));
  if (kind) {
    const media = asRecord(component[kind]) ?? asRecord(param?.[kind]);
    const id = asString(media?.id);
    const link = asString(media?.link);
    const fileName = asString(media?.filename);
    if (id) return <WhatsAppMedia kind={kind} mediaId={id} fileName={fileName} />;
    if (link && kind === 'image') {
      return (
        <img
          src={link}
          alt={S.templateHeaderImage}
          className="max-h-72 max-w-full rounded-md object-contain"
        />
      );
    }
    if (link && kind === 'video') {
      return <video src={link} controls preload="metadata" className="max-h-72 max-w-full rounded-md" />;
    }
    if (link) {
      return (
        <a
          href={link}
          target="_blank"
          rel="noopener noreferrer"
          className="inline-flex items-center gap-2 text-sm font-medium underline underline-offset-4"
        >
          <FileTextIcon aria-hidden="true" className="size-4" />
          {fileName || S.whatsappAttach.document}
        </a>
      );
    }
    return <Text>{S.mediaFailed}</Text>;
  }
  const text = componentText(component);
  return text ? <p className="text-sm font-semibold break-words">{text}</p> : null;
}

function TemplateButton({ button }: { button: TRecord }) {
  const type = asString(button.type)?.toUpperCase();
  const text = asString(button.text) ?? '';
  const className =
    'inline-flex items-center justify-center gap-1.5 rounded-md border bg-background px-3 py-1.5 text-sm font-medium';
  if (type === 'PHONE_NUMBER') {
    const phone = asString(button.phone_number);
    return (
      <a href={phone ? `tel:${phone}` : undefined} className={className}>
        <PhoneIcon aria-hidden="true" className="size-3.5" />
        {text}
      </a>
    );
  }
  if (type === 'URL') {
    const url = asString(button.url);
    const safe = url && /^https?:\/\//i.test(url) ? url : undefined;
    return (
      <a href={safe} target="_blank" rel="noopener noreferrer" className={className}>
        <ExternalLinkIcon aria-hidden="true" className="size-3.5" />
        {text}
      </a>
    );
  }
  return (
    <span className={className}>
      <ReplyIcon aria-hidden="true" className="size-3.5" />
      {text}
    </span>
  );
}

function Template({ template }: { template: TRecord | null }) {
  const components = asArray(template?.components)
    .map(asRecord)
    .filter((c): c is TRecord => c !== null);
  const byType = (type: string) => components.filter((c) => asString(c.type)?.toUpperCase() === type);
  const buttons = byType('BUTTONS').flatMap((c) =>
    asArray(c.buttons)
      .map(asRecord)
      .filter((b): b is TRecord => b !== null),
  );
  // Sent templates name each button as its own component ({type: 'button', sub_type, parameters}).
  const sentButtons = byType('BUTTON').map((c) => ({
    type: asString(c.sub_type) ?? 'QUICK_REPLY',
    text: componentText(c) ?? asString(asRecord(asArray(c.parameters)[0])?.payload) ?? '',
  }));
  const allButtons: TRecord[] = [...buttons, ...sentButtons];
  return (
    <div className="flex flex-col gap-2">
      {byType('HEADER').map((c, i) => (
        <TemplateHeader key={`h${i}`} component={c} />
      ))}
      {byType('BODY').map((c, i) => {
        const text = componentText(c);
        return text ? <Text key={`b${i}`}>{text}</Text> : null;
      })}
      {byType('FOOTER').map((c, i) => {
        const text = componentText(c);
        return text ? (
          <p key={`f${i}`} className="text-xs text-muted-foreground">
            {text}
          </p>
        ) : null;
      })}
      {allButtons.length > 0 ? (
        <div role="group" aria-label={S.templateButtons} className="flex flex-col gap-1.5">
          {allButtons.map((button, i) => (
            <TemplateButton key={i} button={button} />
          ))}
        </div>
      ) : null}
    </div>
  );
}

export function WhatsAppContent({ message }: { message: Pick<TMessage, 'meta_data'> }) {
  const meta = message.meta_data;
  const type = asString(meta.type);
  switch (type) {
    case 'text':
      return <Text>{asString(asRecord(meta.text)?.body) ?? ''}</Text>;
    case 'template':
      return <Template template={asRecord(meta.template)} />;
    case 'image':
    case 'video':
    case 'audio':
    case 'document':
      return <Media kind={type} payload={asRecord(meta[type])} />;
    case 'button':
      return <Text>{asString(asRecord(meta.button)?.text) ?? ''}</Text>;
    default:
      return <p className="text-sm text-muted-foreground italic">{S.unsupported}</p>;
  }
}
