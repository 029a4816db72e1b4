// The heading and channel tabs of an area split by channel (templates, event logs).
import { SHELL_STRINGS, type TArea } from '../strings';

/** The heading and channel tabs of an area split by channel. */
export function areaTabs(
  area: TArea,
  tabs: Array<{ channel: keyof typeof SHELL_STRINGS.channelTabs; to: string }>,
) {
  return async () => {
    const { AreaTabsLayout } = await import('../layouts/area-tabs-layout');
    return {
      element: (
        <AreaTabsLayout
          area={area}
          tabs={tabs.map(({ channel, to }) => ({ label: SHELL_STRINGS.channelTabs[channel], to }))}
        />
      ),
    };
  };
}
