// Settings: the shell (heading and grouped tabs) around each tab.
import { Navigate, type RouteObject } from 'react-router';

import { SETTINGS_PATH, SETTINGS_TABS, settingsPath, type TSettingsTab } from '../../config/paths';
import { type TRouteHandle } from '../document-title';
import { SETTINGS_STRINGS } from '../../features/settings/strings';
import { SHELL_STRINGS } from '../strings';

/** A settings tab's page title: "Billing · Settings". */
function settingsTitle(tab: TSettingsTab): string {
  return `${SETTINGS_STRINGS.tabs[tab]} · ${SETTINGS_STRINGS.heading}`;
}

/** The title of a settings tab the route table names by parameter. */
function settingsTabTitle(params: { tab?: string }): string {
  const tab = SETTINGS_TABS.find((t) => t === params.tab);
  return tab ? settingsTitle(tab) : SETTINGS_STRINGS.heading;
}

export const SETTINGS_ROUTES: RouteObject[] = [
  {
    // The settings shell (heading and tabs) around each tab. Chat groups (the Titan Message
    // feature) and WhatsApp are composed in here: features never import each other.
    path: SETTINGS_PATH,
    handle: { title: SHELL_STRINGS.areas.settings } satisfies TRouteHandle,
    lazy: async () => ({
      Component: (await import('../../features/settings/routes/settings-layout')).SettingsLayout,
    }),
    children: [
      { index: true, element: <Navigate to={settingsPath('business')} replace /> },
      {
        path: 'chat-groups',
        handle: { title: settingsTitle('chat-groups') } satisfies TRouteHandle,
        lazy: async () => ({
          Component: (await import('../../features/chat-groups/routes/chat-groups-settings-route'))
            .ChatGroupsSettingsRoute,
        }),
      },
      {
        path: 'whatsapp',
        handle: { title: settingsTitle('whatsapp') } satisfies TRouteHandle,
        lazy: async () => ({
          Component: (await import('../../features/whatsapp/routes/whatsapp-settings-route'))
            .WhatsappSettingsRoute,
        }),
      },
      {
        path: 'sms',
        handle: { title: settingsTitle('sms') } satisfies TRouteHandle,
        lazy: async () => ({
          Component: (await import('../../features/sms/routes/sms-settings-route')).SmsSettingsRoute,
        }),
      },
      {
        path: 'email-domains',
        handle: { title: settingsTitle('email-domains') } satisfies TRouteHandle,
        lazy: async () => ({
          Component: (await import('../../features/email-domains/routes/email-domains-settings-route'))
            .EmailDomainsSettingsRoute,
        }),
      },
      {
        path: 'inbox-addresses',
        handle: { title: settingsTitle('inbox-addresses') } satisfies TRouteHandle,
        lazy: async () => ({
          Component: (await import('../../features/email-domains/routes/inbox-addresses-settings-route'))
            .InboxAddressesSettingsRoute,
        }),
      },
      {
        path: 'billing',
        handle: { title: settingsTitle('billing') } satisfies TRouteHandle,
        lazy: async () => ({
          Component: (await import('../../features/billing/routes/billing-settings-route'))
            .BillingSettingsRoute,
        }),
      },
      {
        path: 'qr-form',
        handle: { title: settingsTitle('qr-form') } satisfies TRouteHandle,
        lazy: async () => ({
          Component: (await import('../../features/qr-forms/routes/qr-form-settings-route'))
            .QrFormSettingsRoute,
        }),
      },
      {
        path: 'ai-model',
        handle: { title: settingsTitle('ai-model') } satisfies TRouteHandle,
        lazy: async () => ({
          Component: (await import('../../features/llm/routes/llm-settings-route')).LlmSettingsRoute,
        }),
      },
      {
        path: 'mcp-servers',
        handle: { title: settingsTitle('mcp-servers') } satisfies TRouteHandle,
        lazy: async () => ({
          Component: (await import('../../features/outside-tools/routes/mcp-servers-settings-route'))
            .McpServersSettingsRoute,
        }),
      },
      {
        path: 'mcp-servers/callback',
        handle: { title: settingsTitle('mcp-servers') } satisfies TRouteHandle,
        lazy: async () => ({
          Component: (await import('../../features/outside-tools/routes/mcp-callback-route'))
            .McpCallbackRoute,
        }),
      },
      {
        path: 'plugins',
        handle: { title: settingsTitle('plugins') } satisfies TRouteHandle,
        lazy: async () => ({
          Component: (await import('../../features/outside-tools/routes/plugins-settings-route'))
            .PluginsSettingsRoute,
        }),
      },
      {
        path: 'plugins/callback',
        handle: { title: settingsTitle('plugins') } satisfies TRouteHandle,
        lazy: async () => ({
          Component: (await import('../../features/outside-tools/routes/plugin-callback-route'))
            .PluginCallbackRoute,
        }),
      },
      {
        path: 'webhooks',
        handle: { title: settingsTitle('webhooks') } satisfies TRouteHandle,
        lazy: async () => ({
          Component: (await import('../../features/webhooks/routes/webhooks-settings-route'))
            .WebhooksSettingsRoute,
        }),
      },
      {
        path: 'notifications',
        handle: { title: settingsTitle('notifications') } satisfies TRouteHandle,
        lazy: async () => ({
          Component: (await import('../../features/notifications/routes/notification-settings-route'))
            .NotificationSettingsRoute,
        }),
      },
      {
        path: ':tab',
        handle: { title: settingsTabTitle } satisfies TRouteHandle,
        lazy: async () => ({
          Component: (await import('../../features/settings/routes/settings-route')).SettingsRoute,
        }),
      },
    ],
  },
];
