// /engage/event-logs/{id} (the spec's route): a send by its tracking id, whatever its channel. Each
// channel's log is asked for the id and the page opens the channel's page of the one that has it, so
// a link that names only the id (a support mail, an older bookmark) still lands on the send.
import type { TEventLogChannel } from '@titan/contracts';
import { useQueries } from '@tanstack/react-query';
import { SearchXIcon } from 'lucide-react';
import { Navigate, useParams } from 'react-router';

import { EmptyState } from '../../../components/empty-state';
import { SectionError, SectionLoading } from '../../../components/load-state';
import { eventLogPath } from '../../../config/paths';
import { apiErrorStatus } from '../../../lib/api-errors';
import { eventLogQueryOptions } from '../api/get-event-log';
import { EVENT_LOGS_STRINGS } from '../strings';
import { PageLayout } from '../../../components/layout/page-layout';

const S = EVENT_LOGS_STRINGS.log;
const CHANNELS: TEventLogChannel[] = ['email', 'sms', 'whatsapp'];
/** An unknown id (404) or one that cannot be an id at all (400). */
const NOT_FOUND = new Set([400, 404]);

export function EventLogLookupRoute() {
  const { trackingId = '' } = useParams();
  const results = useQueries({
    queries: CHANNELS.map((channel) => ({ ...eventLogQueryOptions(channel, trackingId), retry: false })),
  });
  const found = CHANNELS.find((_, i) => results[i]!.isSuccess);
  if (found) return <Navigate replace to={eventLogPath(found, trackingId)} />;

  const failed = results.find((r) => r.isError && !NOT_FOUND.has(apiErrorStatus(r.error) ?? 0));
  return (
    <PageLayout>
      <h1 className="text-2xl font-semibold tracking-tight break-words">{S.lookupTitle}</h1>
      {results.some((r) => r.isPending) ? (
        <SectionLoading />
      ) : failed ? (
        <SectionError
          error={failed.error}
          onRetry={() => results.forEach((r) => void r.refetch())}
          fallback={S.lookupFailed}
        />
      ) : (
        <EmptyState icon={SearchXIcon} title={S.notFoundTitle} text={S.lookupNotFoundText} />
      )}
    </PageLayout>
  );
}
