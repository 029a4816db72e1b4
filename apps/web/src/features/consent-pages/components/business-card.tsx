// The card of the public consent pages, in the business's look: its logo and name above (never
// Titan's), its accent colour as the card's top edge, the page in the customer's language.
import type { ReactNode } from 'react';

import { Card, CardContent, CardDescription, CardHeader } from '../../../components/ui/card';

export type TBusinessLook = { name: string; logo_url: string | null; accent_color: string | null };

export function BusinessCard({
  business,
  lang,
  title,
  description,
  children,
}: {
  business: TBusinessLook | null;
  /** The language the page is written in (its `lang`). */
  lang: string;
  title: string;
  description?: ReactNode;
  children?: ReactNode;
}) {
  return (
    <main lang={lang} className="flex min-h-dvh flex-col items-center justify-center gap-6 bg-muted/40 p-4">
      {business ? (
        <div className="flex items-center gap-3">
          {business.logo_url ? (
            <img src={business.logo_url} alt="" className="h-10 max-w-32 object-contain" />
          ) : null}
          <p className="text-xl font-semibold tracking-tight">{business.name}</p>
        </div>
      ) : null}
      <Card
        className="w-full max-w-md border-t-4"
        style={business?.accent_color ? { borderTopColor: business.accent_color } : undefined}
      >
        <CardHeader>
          <h1 className="text-lg leading-tight font-semibold">{title}</h1>
          {description ? <CardDescription>{description}</CardDescription> : null}
        </CardHeader>
        {children ? <CardContent className="grid gap-4">{children}</CardContent> : null}
      </Card>
    </main>
  );
}
