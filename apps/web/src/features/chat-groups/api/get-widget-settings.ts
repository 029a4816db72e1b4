// GET /api/msg/widget-settings/ → the business-wide widget settings: allowed origins, whether identity
// verification is on, and its secret (team.manage).
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZEnvelope, ZWidgetSettings, type TWidgetSettings } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { BUSINESS_SCOPE } from '../../../lib/query-client';

export const WIDGET_SETTINGS_PATH = '/api/msg/widget-settings/';

export async function getWidgetSettings(): Promise<TWidgetSettings> {
  const { data } = await protectedClient.get(WIDGET_SETTINGS_PATH);
  return ZEnvelope(ZWidgetSettings).parse(data).result;
}

export function widgetSettingsQueryOptions() {
  return queryOptions({
    queryKey: [BUSINESS_SCOPE, 'widget-settings'],
    queryFn: getWidgetSettings,
    meta: { errorShownOnScreen: true },
  });
}

export function useWidgetSettings() {
  return useQuery(widgetSettingsQueryOptions());
}
