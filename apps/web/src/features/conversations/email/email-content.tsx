// The body of a message on an email conversation: its HTML (sanitised on the server and again here)
// or its text, with the quoted history folded behind "Show quoted text"; who else it was copied to;
// its attachments (signed links, pictures shown); and a note when it was marked as spam.
import type { TMessage } from '@titan/contracts';
import { FileIcon, ShieldAlertIcon } from 'lucide-react';
import { useMemo, useState } from 'react';

import { Button } from '../../../components/ui/button';
import { cn } from '../../../lib/utils';
import { emailHtml } from './quoted-html';
import { EMAIL_STRINGS as S } from './strings';

const PROSE = [
  'min-w-0 max-w-full overflow-x-auto text-sm leading-relaxed break-words',
  '[&_p]:my-2 [&_ul]:my-2 [&_ul]:list-disc [&_ul]:pl-6 [&_ol]:my-2 [&_ol]:list-decimal [&_ol]:pl-6',
  '[&_a]:text-primary [&_a]:underline [&_a]:underline-offset-2',
  '[&_blockquote]:my-2 [&_blockquote]:border-l-4 [&_blockquote]:pl-3 [&_blockquote]:text-muted-foreground',
  '[&_img]:h-auto [&_img]:max-w-full [&_table]:max-w-full',
].join(' ');

type TAttachment = { key?: string; file_name: string; mime_type: string; size: number; url?: string };

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];

function attachmentsOf(meta: Record<string, unknown>): TAttachment[] {
  const list = Array.isArray(meta.attachments) ? meta.attachments : [];
  return list.filter(
    (a): a is TAttachment =>
      typeof a === 'object' && a !== null && typeof (a as TAttachment).file_name === 'string',
  );
}

function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

export function EmailContent({ message }: { message: Pick<TMessage, 'content' | 'meta_data'> }) {
  const meta = message.meta_data;
  const [showQuoted, setShowQuoted] = useState(false);
  const html = typeof meta.html === 'string' && meta.html.trim() !== '' ? meta.html : null;
  const split = useMemo(() => (html ? emailHtml(html) : null), [html]);
  const fullText = typeof meta.full_text === 'string' ? meta.full_text : null;
  const folded = split ? split.folded : meta.quoted_folded === true && fullText !== null;
  const cc = strings(meta.cc);
  const attachments = attachmentsOf(meta);
  const spamReasons = strings(meta.spam_reasons);
  return (
    <div className="flex min-w-0 flex-col gap-2">
      {meta.spam === true ? (
        <p role="note" className="flex items-center gap-1 text-xs font-medium text-destructive">
          <ShieldAlertIcon aria-hidden="true" className="size-3.5 shrink-0" />
          {spamReasons.length ? S.spamWhy(spamReasons) : S.spam}
        </p>
      ) : null}
      {cc.length ? <p className="text-xs text-muted-foreground">{S.copied(cc)}</p> : null}
      {split ? (
        <div
          data-testid="email-html"
          className={PROSE}
          // Sanitised by DOMPurify in emailHtml (and by sanitize-html on the server).
          dangerouslySetInnerHTML={{ __html: showQuoted ? split.full : split.visible }}
        />
      ) : (
        <p className="text-sm break-words whitespace-pre-wrap">
          {showQuoted && fullText ? fullText : message.content}
        </p>
      )}
      {folded ? (
        <Button
          type="button"
          variant="link"
          size="sm"
          className="h-auto self-start p-0 text-xs"
          aria-expanded={showQuoted}
          onClick={() => setShowQuoted((v) => !v)}
        >
          {showQuoted ? S.hideQuoted : S.showQuoted}
        </Button>
      ) : null}
      {attachments.length ? (
        <ul aria-label={S.attachments} className="flex flex-wrap gap-2">
          {attachments.map((a, i) => (
            <li key={a.key ?? `${a.file_name}-${i}`}>
              <a
                href={a.url}
                target="_blank"
                rel="noopener noreferrer"
                className={cn(
                  'inline-flex max-w-60 items-center gap-2 rounded-md border bg-background/60 px-2 py-1.5 text-xs',
                  a.url ? 'hover:bg-accent' : 'pointer-events-none',
                )}
              >
                {a.mime_type.startsWith('image/') && a.url ? (
                  <img src={a.url} alt="" className="size-8 rounded object-cover" />
                ) : (
                  <FileIcon aria-hidden="true" className="size-4 shrink-0" />
                )}
                <span className="truncate">{a.file_name}</span>
                <span className="text-muted-foreground">{formatSize(a.size)}</span>
              </a>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
