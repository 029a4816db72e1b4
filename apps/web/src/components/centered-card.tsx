// The centred card of the public and onboarding screens: product name, a heading, optional text.
import type { ReactNode } from 'react';

import { PRODUCT_NAME } from '../lib/strings';
import { Card, CardContent, CardDescription, CardHeader } from './ui/card';

export function CenteredCard({
  title,
  description,
  children,
  brand = PRODUCT_NAME,
}: {
  title: string;
  /** The name above the card: Titan's, or (pages a business's customers see) the business's; null: none. */
  brand?: string | null;
  description?: ReactNode;
  children?: ReactNode;
}) {
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center gap-6 bg-muted/40 p-4">
      {brand ? <p className="text-xl font-semibold tracking-tight">{brand}</p> : null}
      <Card className="w-full max-w-sm">
        <CardHeader>
          <h1 className="text-lg leading-tight font-semibold">{title}</h1>
          {description ? <CardDescription>{description}</CardDescription> : null}
        </CardHeader>
        {children ? <CardContent className="grid gap-4">{children}</CardContent> : null}
      </Card>
    </main>
  );
}
