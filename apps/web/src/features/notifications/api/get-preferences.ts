// GET /api/notifications/preferences/: which alerts the member gets, in the app and by push.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZEnvelope, ZNotificationPreferences } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { BUSINESS_SCOPE } from '../../../lib/query-client';

export const NOTIFICATION_PREFERENCES_PATH = '/api/notifications/preferences/';

export const preferencesQueryKey = [BUSINESS_SCOPE, 'notification-preferences'] as const;

export function preferencesQueryOptions() {
  return queryOptions({
    queryKey: preferencesQueryKey,
    queryFn: async ({ signal }) => {
      const { data } = await protectedClient.get(NOTIFICATION_PREFERENCES_PATH, { signal });
      return ZEnvelope(ZNotificationPreferences).parse(data).result;
    },
  });
}

export function usePreferences() {
  return useQuery(preferencesQueryOptions());
}
