// /engage/templates/email/brand: the business's brand for mail and its saved blocks, with a way to
// start a new template from the brand. Everyone in the engage area may read them.
import { ArrowLeftIcon, PlusIcon } from 'lucide-react';
import { Link } from 'react-router';

import { PageLayout } from '../../../components/layout/page-layout';
import { SectionError, SectionLoading } from '../../../components/load-state';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { EMAIL_TEMPLATES_PATH, NEW_EMAIL_TEMPLATE_FROM_BRAND_PATH } from '../../../config/paths';
import { usePermissions } from '../../../lib/business/roles';
import { useEmailBlocks } from '../api/get-email-blocks';
import { useEmailBrand } from '../api/get-email-brand';
import { BrandPanel } from '../components/brand-panel';
import { SavedBlocksList } from '../components/saved-blocks-list';
import { EMAIL_TEMPLATE_STRINGS } from '../strings';

const S = EMAIL_TEMPLATE_STRINGS.brand;

export function EmailBrandRoute() {
  const brand = useEmailBrand();
  const blocks = useEmailBlocks();
  const { can, ready } = usePermissions();
  const canWrite = can('engage.write');

  return (
    <PageLayout>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <Button asChild variant="ghost" size="sm" className="-ml-2">
          <Link to={EMAIL_TEMPLATES_PATH}>
            <ArrowLeftIcon aria-hidden="true" />
            {EMAIL_TEMPLATE_STRINGS.back}
          </Link>
        </Button>
        {canWrite ? (
          <Button asChild variant="outline" size="sm">
            <Link to={NEW_EMAIL_TEMPLATE_FROM_BRAND_PATH}>
              <PlusIcon aria-hidden="true" />
              {S.fromBrand}
            </Link>
          </Button>
        ) : null}
      </div>
      <div className="grid gap-1">
        <h1 className="text-2xl font-semibold tracking-tight break-words">{S.title}</h1>
        <p className="text-sm text-muted-foreground">{S.description}</p>
      </div>
      <Card>
        <CardContent>
          {brand.isPending || !ready ? (
            <SectionLoading />
          ) : brand.isError ? (
            <SectionError error={brand.error} onRetry={() => void brand.refetch()} fallback={S.loadFailed} />
          ) : (
            <BrandPanel key={brand.data.updated_at ?? 'defaults'} brand={brand.data} canWrite={canWrite} />
          )}
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>{S.blocksTitle}</CardTitle>
          <CardDescription>{S.blocksDescription}</CardDescription>
        </CardHeader>
        <CardContent>
          {blocks.isPending ? (
            <SectionLoading />
          ) : blocks.isError ? (
            <SectionError
              error={blocks.error}
              onRetry={() => void blocks.refetch()}
              fallback={S.blocksLoadFailed}
            />
          ) : (
            <SavedBlocksList blocks={blocks.data} canDelete={canWrite} />
          )}
        </CardContent>
      </Card>
    </PageLayout>
  );
}
