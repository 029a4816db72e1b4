// /engage/campaigns: the business's campaigns, newest first, with their status and progress.
import { MegaphoneIcon, PlusIcon } from 'lucide-react';
import { Link, useSearchParams } from 'react-router';

import { EmptyState } from '../../../components/empty-state';
import { PageLayout } from '../../../components/layout/page-layout';
import { SectionError, SectionLoading } from '../../../components/load-state';
import { Pager } from '../../../components/pager';
import { Button } from '../../../components/ui/button';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../../components/ui/table';
import { campaignPath, editCampaignPath, NEW_CAMPAIGN_PATH } from '../../../config/paths';
import { usePermissions } from '../../../lib/business/roles';
import { formatDate } from '../../../lib/format';
import { CAMPAIGNS_PAGE_SIZE, useCampaigns } from '../api/get-campaigns';
import { CampaignStatus } from '../components/campaign-status';
import { CAMPAIGNS_STRINGS as S } from '../strings';

export function CampaignsRoute() {
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number(params.get('page')) || 1);
  const campaigns = useCampaigns(page);
  const canWrite = usePermissions().can('engage.write');

  const content = () => {
    if (campaigns.isPending) return <SectionLoading />;
    if (campaigns.isError)
      return (
        <SectionError
          error={campaigns.error}
          onRetry={() => void campaigns.refetch()}
          fallback={S.loadFailed}
        />
      );
    const { results, count } = campaigns.data;
    if (results.length === 0)
      return <EmptyState icon={MegaphoneIcon} title={S.emptyTitle} text={S.emptyText} />;
    return (
      <div className="grid gap-4">
        <Table aria-label={S.tableLabel}>
          <TableHeader>
            <TableRow>
              <TableHead>{S.columns.name}</TableHead>
              <TableHead>{S.columns.channel}</TableHead>
              <TableHead>{S.columns.status}</TableHead>
              <TableHead className="text-right">{S.columns.recipients}</TableHead>
              <TableHead>{S.columns.created}</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {results.map((c) => (
              <TableRow key={c.id}>
                <TableCell className="font-medium">
                  <Link
                    to={c.status === 'draft' && canWrite ? editCampaignPath(c.id) : campaignPath(c.id)}
                    className="hover:underline"
                  >
                    {c.name}
                  </Link>
                </TableCell>
                <TableCell>{S.channels[c.channel]}</TableCell>
                <TableCell>
                  <CampaignStatus status={c.status} />
                </TableCell>
                <TableCell className="text-right tabular-nums">
                  {c.recipients.toLocaleString('en-US')}
                </TableCell>
                <TableCell>{formatDate(c.created_at)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
        <Pager
          page={page}
          pageSize={CAMPAIGNS_PAGE_SIZE}
          count={count}
          shown={results.length}
          onPage={(next) => setParams(next > 1 ? { page: String(next) } : {})}
        />
      </div>
    );
  };

  return (
    <PageLayout
      title={S.title}
      description={S.description}
      actions={
        canWrite ? (
          <Button asChild>
            <Link to={NEW_CAMPAIGN_PATH}>
              <PlusIcon aria-hidden="true" />
              {S.newCampaign}
            </Link>
          </Button>
        ) : null
      }
    >
      {content()}
    </PageLayout>
  );
}
