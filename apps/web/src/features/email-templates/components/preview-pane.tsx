// The rendered email: subject, then the HTML in a sandboxed frame (no scripts, no same origin) at
// desktop or phone width, or the plain-text part. Renders whatever preview the server last answered.
import type { TEmailTemplatePreview } from '@titan/contracts';
import { MonitorIcon, SmartphoneIcon } from 'lucide-react';
import { useState } from 'react';

import { Spinner } from '../../../components/ui/spinner';
import { ToggleGroup, ToggleGroupItem } from '../../../components/ui/toggle-group';
import { cn } from '../../../lib/utils';
import { EMAIL_TEMPLATE_STRINGS as S } from '../strings';
import { withoutWebFonts } from '../../../lib/email-fonts';

const PREVIEW_WIDTHS = { desktop: 640, phone: 375 } as const;
type TWidth = keyof typeof PREVIEW_WIDTHS;
type TPart = 'html' | 'text';

export function PreviewPane({
  preview,
  updating,
  failed,
}: {
  preview: TEmailTemplatePreview | undefined;
  updating: boolean;
  failed: boolean;
}) {
  const [width, setWidth] = useState<TWidth>('desktop');
  const [part, setPart] = useState<TPart>('html');
  return (
    <section aria-label={S.previewTitle} className="flex min-w-0 flex-col gap-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-base font-semibold">{S.previewTitle}</h2>
        <div className="flex items-center gap-2">
          {updating ? (
            <span className="flex items-center gap-1 text-xs text-muted-foreground" role="status">
              <Spinner className="size-3" />
              {S.previewUpdating}
            </span>
          ) : null}
          <ToggleGroup
            type="single"
            variant="outline"
            size="sm"
            aria-label={S.previewTitle}
            value={part}
            onValueChange={(v) => {
              if (v === 'html' || v === 'text') setPart(v);
            }}
          >
            <ToggleGroupItem value="html">{S.htmlTab}</ToggleGroupItem>
            <ToggleGroupItem value="text">{S.textTab}</ToggleGroupItem>
          </ToggleGroup>
          <ToggleGroup
            type="single"
            variant="outline"
            size="sm"
            aria-label={S.previewWidth}
            value={width}
            onValueChange={(v) => {
              if (v === 'desktop' || v === 'phone') setWidth(v);
            }}
          >
            <ToggleGroupItem value="desktop" aria-label={S.desktop} title={S.desktop}>
              <MonitorIcon />
            </ToggleGroupItem>
            <ToggleGroupItem value="phone" aria-label={S.phone} title={S.phone}>
              <SmartphoneIcon />
            </ToggleGroupItem>
          </ToggleGroup>
        </div>
      </div>
      {failed ? (
        <p role="alert" className="text-sm text-destructive">
          {S.previewFailed}
        </p>
      ) : null}
      {preview ? (
        <>
          <p className="truncate text-sm">
            <span className="text-muted-foreground">{S.previewSubject}</span>{' '}
            <span data-testid="preview-subject">{preview.subject}</span>
          </p>
          <div className="flex justify-center overflow-x-auto rounded-md border bg-muted/40 p-2">
            {part === 'html' ? (
              <iframe
                title={S.previewFrame}
                // Nothing in a template may run or reach the app: no allow-* at all.
                sandbox=""
                srcDoc={withoutWebFonts(preview.html)}
                style={{ width: PREVIEW_WIDTHS[width] }}
                className={cn('h-[32rem] max-w-full rounded bg-white')}
              />
            ) : (
              <pre
                aria-label={S.textTab}
                className="h-[32rem] w-full overflow-auto p-3 text-sm whitespace-pre-wrap"
                style={{ maxWidth: PREVIEW_WIDTHS[width] }}
              >
                {preview.text}
              </pre>
            )}
          </div>
        </>
      ) : (
        <p className="text-sm text-muted-foreground">{S.previewEmpty}</p>
      )}
    </section>
  );
}
