// The saved form's QR code: shown, downloadable as SVG (print) or PNG, with the address it opens.
import type { TQrSchema } from '@titan/contracts';
import { DownloadIcon, ExternalLinkIcon } from 'lucide-react';
import { useState } from 'react';

import { CopyButton } from '../../../components/copy-button';
import { SectionError, SectionLoading } from '../../../components/load-state';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { reportApiError } from '../../../lib/api-errors';
import { downloadQrCode, useQrSvg } from '../api/get-qr-code';
import { QR_EDITOR_STRINGS as S } from '../strings';

function QrImage({ schema }: { schema: TQrSchema }) {
  const svg = useQrSvg(schema);
  if (svg.isPending) return <SectionLoading />;
  if (svg.isError) return <SectionError error={svg.error} onRetry={() => void svg.refetch()} />;
  return (
    <img
      src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg.data)}`}
      alt={S.qrAlt(schema.url)}
      className="mx-auto aspect-square w-full max-w-56 rounded-md border bg-white"
    />
  );
}

export function QrCodeCard({ schema }: { schema: TQrSchema }) {
  const [busy, setBusy] = useState<'svg' | 'png' | null>(null);
  const download = async (format: 'svg' | 'png') => {
    setBusy(format);
    try {
      await downloadQrCode(schema, format);
    } catch (error) {
      reportApiError(error, { toast: S.downloadFailed });
    } finally {
      setBusy(null);
    }
  };
  const saved = schema.created_at !== null;
  return (
    <Card>
      <CardHeader>
        <CardTitle>{S.qrTitle}</CardTitle>
        <CardDescription>{saved ? S.submissions(schema.submission_count) : S.qrNotSaved}</CardDescription>
      </CardHeader>
      {saved ? (
        <CardContent className="grid gap-4">
          <QrImage schema={schema} />
          {!schema.active ? <p className="text-sm text-muted-foreground">{S.qrOff}</p> : null}
          <div className="flex flex-wrap gap-2">
            <Button variant="outline" size="sm" disabled={busy !== null} onClick={() => void download('svg')}>
              <DownloadIcon aria-hidden="true" />
              {S.downloadSvg}
            </Button>
            <Button variant="outline" size="sm" disabled={busy !== null} onClick={() => void download('png')}>
              <DownloadIcon aria-hidden="true" />
              {S.downloadPng}
            </Button>
          </div>
          <div className="grid gap-2">
            <code className="rounded-md bg-muted px-2 py-1 font-mono text-xs break-all">{schema.url}</code>
            <div className="flex flex-wrap gap-2">
              <CopyButton value={schema.url} />
              <Button variant="ghost" size="sm" asChild>
                <a href={schema.url} target="_blank" rel="noreferrer">
                  <ExternalLinkIcon aria-hidden="true" />
                  {S.openForm}
                </a>
              </Button>
            </div>
          </div>
        </CardContent>
      ) : null}
    </Card>
  );
}
