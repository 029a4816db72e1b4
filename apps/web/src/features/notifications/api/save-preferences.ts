// PUT /api/notifications/preferences/: the member's alert preferences saved; the answer is cached.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ZEnvelope, ZNotificationPreferences, type TNotificationPreferences } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { NOTIFICATION_PREFERENCES_PATH, preferencesQueryKey } from './get-preferences';

export function useSavePreferences() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (prefs: TNotificationPreferences) => {
      const { data } = await protectedClient.put(NOTIFICATION_PREFERENCES_PATH, prefs);
      return ZEnvelope(ZNotificationPreferences).parse(data).result;
    },
    onSuccess: (prefs) => queryClient.setQueryData(preferencesQueryKey, prefs),
  });
}
