// PUT /api/msg/widget-settings/ {allowed_origins?, identity_verification?} → the settings. Turning
// verification on creates a secret; turning it off deletes it.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  ZEnvelope,
  ZWidgetSettings,
  type TWidgetSettings,
  type ZUpdateWidgetSettingsRequest,
} from '@titan/contracts';
import type { z } from 'zod';

import { protectedClient } from '../../../lib/protected-client';
import { WIDGET_SETTINGS_PATH, widgetSettingsQueryOptions } from './get-widget-settings';

export type TUpdateWidgetSettings = z.input<typeof ZUpdateWidgetSettingsRequest>;

export async function updateWidgetSettings(body: TUpdateWidgetSettings): Promise<TWidgetSettings> {
  const { data } = await protectedClient.put(WIDGET_SETTINGS_PATH, body);
  return ZEnvelope(ZWidgetSettings).parse(data).result;
}

export function useUpdateWidgetSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateWidgetSettings,
    onSuccess: (settings) => queryClient.setQueryData(widgetSettingsQueryOptions().queryKey, settings),
  });
}
