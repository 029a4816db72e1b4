// POST /api/msg/widget-settings/rotate-secret/ → the settings with a new identity secret; signatures
// made with the old one stop working at once.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ZEnvelope, ZWidgetSettings, type TWidgetSettings } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { WIDGET_SETTINGS_PATH, widgetSettingsQueryOptions } from './get-widget-settings';

export async function rotateIdentitySecret(): Promise<TWidgetSettings> {
  const { data } = await protectedClient.post(`${WIDGET_SETTINGS_PATH}rotate-secret/`);
  return ZEnvelope(ZWidgetSettings).parse(data).result;
}

export function useRotateIdentitySecret() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: rotateIdentitySecret,
    onSuccess: (settings) => queryClient.setQueryData(widgetSettingsQueryOptions().queryKey, settings),
  });
}
