// The route table (spec section 2). Every screen is a lazily loaded module; the root route shows the
// full-screen loader while the first screen loads and the error screen when anything fails. Guards run
// as loaders (guards.ts): signed-in screens, and business screens that also need a current business.
import type { QueryClient } from '@tanstack/react-query';
import type { TEventLogChannel } from '@titan/contracts';
import { createBrowserRouter, Navigate, redirect, type RouteObject } from 'react-router';

import { FullScreenLoader } from '../components/full-screen-loader';
import {
  AGENTS_PATH,
  AI_TEMPLATE_PATH,
  AUTH_FLOW_PATH,
  DASHBOARD_PATH,
  DEV_OUTBOX_PATH,
  DIRECTORY_PATH,
  DNS_HELP_PATH,
  EMAIL_TEMPLATES_PATH,
  EMBED_SETTINGS_PATH,
  EVENT_LOG_SEGMENTS,
  EVENT_LOGS_PATH,
  eventLogsPath,
  FORGOT_PASSWORD_PATH,
  JOIN_BUSINESS_PATH,
  LOGIN_PATH,
  MESSAGES_PATH,
  NEW_AGENT_PATH,
  NEW_EMAIL_TEMPLATE_PATH,
  REGISTER_BUSINESS_PATH,
  TWO_FACTOR_SETUP_PATH,
  safeNextPath,
  SETTINGS_PATH,
  settingsPath,
  SIGNUP_PATH,
  LISTS_PATH,
  DIRECTORY_IMPORT_PATH,
  TEMPLATES_PATH,
  UNSUBSCRIBE_PATH,
  CONFIRM_SUBSCRIPTION_PATH,
  QR_FORM_PUBLIC_PATH,
} from '../config/paths';
import { hasSession } from '../lib/session/tokens';
import { createBusinessLoader, createSessionLoader } from './guards';
import { RootLayout } from './layouts/root-layout';
import { ErrorScreen } from './routes/error-screen';
import { SHELL_STRINGS, type TArea } from './strings';

/** Login and sign-up are for signed-out people: a signed-in one goes where they were heading. */
function guestLoader({ request }: { request: Request }) {
  if (!hasSession()) return null;
  return redirect(safeNextPath(new URL(request.url).searchParams.get('next')) ?? DASHBOARD_PATH);
}

/** The heading and channel tabs of an area split by channel. */
function areaTabs(area: TArea, tabs: Array<{ channel: keyof typeof SHELL_STRINGS.channelTabs; to: string }>) {
  return async () => {
    const { AreaTabsLayout } = await import('./layouts/area-tabs-layout');
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

/** The event logs, a tab per channel in the order the tabs show. */
const EVENT_LOG_TABS: TEventLogChannel[] = ['email', 'whatsapp', 'sms'];

/** A channel's list of sends. WhatsApp's tab also shows this month's spend, a WhatsApp feature piece. */
function eventLogsLazy(channel: TEventLogChannel) {
  return async () => {
    const { EventLogsRoute } = await import('../features/event-logs/routes/event-logs-route');
    if (channel !== 'whatsapp') return { element: <EventLogsRoute key={channel} channel={channel} /> };
    const { BalanceSummary } = await import('../features/whatsapp/components/balance-summary');
    return { element: <EventLogsRoute key={channel} channel={channel} summary={<BalanceSummary />} /> };
  };
}

/** One send's page, with its timeline; the same page for every channel. */
function eventLogLazy(channel: TEventLogChannel) {
  return async () => {
    const { EventLogRoute } = await import('../features/event-logs/routes/event-log-route');
    return { element: <EventLogRoute channel={channel} /> };
  };
}

/**
 * /engage/event-logs was the WhatsApp log before the other channels had tabs: it opens the WhatsApp
 * tab, filters and page kept, so old links and bookmarks still land on the same rows.
 */
function eventLogsIndexLoader({ request }: { request: Request }) {
  return redirect(`${eventLogsPath('whatsapp')}${new URL(request.url).search}`);
}

export function createRoutes(queryClient: QueryClient): RouteObject[] {
  return [
    {
      id: 'root',
      Component: RootLayout,
      HydrateFallback: FullScreenLoader,
      errorElement: <ErrorScreen />,
      children: [
        // Replace, not push: Back from the dashboard must not land on / and bounce forward again.
        { index: true, element: <Navigate to={DASHBOARD_PATH} replace /> },
        {
          path: LOGIN_PATH,
          loader: guestLoader,
          lazy: async () => ({ Component: (await import('../features/auth/routes/login-route')).LoginRoute }),
        },
        {
          path: SIGNUP_PATH,
          loader: guestLoader,
          lazy: async () => ({
            Component: (await import('../features/auth/routes/signup-route')).SignupRoute,
          }),
        },
        {
          path: FORGOT_PASSWORD_PATH,
          lazy: async () => ({
            Component: (await import('../features/auth/routes/forgot-password-route')).ForgotPasswordRoute,
          }),
        },
        {
          path: `${FORGOT_PASSWORD_PATH}/:encodedEmail/:key`,
          lazy: async () => ({
            Component: (await import('../features/auth/routes/reset-password-route')).ResetPasswordRoute,
          }),
        },
        {
          path: AUTH_FLOW_PATH,
          lazy: async () => ({
            Component: (await import('../features/auth/routes/auth-flow-route')).AuthFlowRoute,
          }),
        },
        {
          path: '/auth/account-confirm-email/:token',
          lazy: async () => ({
            Component: (await import('../features/auth/routes/confirm-email-route')).ConfirmEmailRoute,
          }),
        },
        {
          // Development only: the page itself says so when the server keeps no outbox.
          path: DEV_OUTBOX_PATH,
          lazy: async () => ({
            Component: (await import('../features/dev-outbox/routes/outbox-route')).OutboxRoute,
          }),
        },
        {
          // Public: a business's DNS admin may follow it without a Titan account.
          path: DNS_HELP_PATH,
          lazy: async () => ({
            Component: (await import('../features/email-domains/routes/dns-help-route')).DnsHelpRoute,
          }),
        },
        {
          // Public: reached from the link in an email, no session needed.
          path: UNSUBSCRIBE_PATH,
          lazy: async () => ({
            Component: (await import('../features/unsubscribe/routes/unsubscribe-route')).UnsubscribeRoute,
          }),
        },
        {
          // Public: reached from the double opt-in mail, no session needed.
          path: CONFIRM_SUBSCRIPTION_PATH,
          lazy: async () => ({
            Component: (await import('../features/qr-forms/routes/confirm-subscription-route'))
              .ConfirmSubscriptionRoute,
          }),
        },
        {
          // Public: the visitor form a QR code opens.
          path: QR_FORM_PUBLIC_PATH,
          lazy: async () => ({
            Component: (await import('../features/qr-forms/routes/public-qr-form-route')).PublicQrFormRoute,
          }),
        },
        {
          path: '/invite-user/join/:details',
          lazy: async () => ({
            Component: (await import('../features/onboarding/routes/invitation-route')).InvitationRoute,
          }),
        },
        {
          id: 'signed-in',
          loader: createSessionLoader(queryClient),
          children: [
            {
              path: TWO_FACTOR_SETUP_PATH,
              lazy: async () => ({
                Component: (await import('../features/settings/routes/two-factor-setup-route'))
                  .TwoFactorSetupRoute,
              }),
            },
            {
              path: REGISTER_BUSINESS_PATH,
              lazy: async () => ({
                Component: (await import('../features/onboarding/routes/register-business-route'))
                  .RegisterBusinessRoute,
              }),
            },
            {
              path: JOIN_BUSINESS_PATH,
              lazy: async () => ({
                Component: (await import('../features/onboarding/routes/join-business-route'))
                  .JoinBusinessRoute,
              }),
            },
            {
              path: '/confirm-payment/:payment_status',
              lazy: async () => ({
                Component: (await import('../features/billing/routes/confirm-payment-route'))
                  .ConfirmPaymentRoute,
              }),
            },
          ],
        },
        {
          id: 'engage',
          loader: createBusinessLoader(queryClient),
          lazy: async () => ({ Component: (await import('./layouts/engage-layout')).EngageLayout }),
          children: [
            {
              path: DASHBOARD_PATH,
              lazy: async () => ({
                Component: (await import('../features/dashboard/routes/dashboard-route')).DashboardRoute,
              }),
            },
            {
              path: MESSAGES_PATH,
              lazy: async () => ({
                Component: (await import('../features/conversations/routes/messages-route')).MessagesRoute,
              }),
            },
            {
              path: AGENTS_PATH,
              lazy: async () => ({
                Component: (await import('../features/agents/routes/agents-route')).AgentsRoute,
              }),
            },
            {
              path: NEW_AGENT_PATH,
              lazy: async () => ({
                Component: (await import('../features/agents/routes/agent-route')).NewAgentRoute,
              }),
            },
            {
              path: `${AGENTS_PATH}/:id`,
              lazy: async () => ({
                Component: (await import('../features/agents/routes/agent-route')).AgentRoute,
              }),
            },
            {
              // WhatsApp templates (the index) and email templates (a tab, and the editor's pages).
              path: TEMPLATES_PATH,
              children: [
                {
                  lazy: areaTabs('templates', [
                    { channel: 'whatsapp', to: TEMPLATES_PATH },
                    { channel: 'email', to: EMAIL_TEMPLATES_PATH },
                  ]),
                  children: [
                    {
                      index: true,
                      lazy: async () => ({
                        Component: (await import('../features/whatsapp/routes/whatsapp-templates-route'))
                          .WhatsappTemplatesRoute,
                      }),
                    },
                    {
                      path: EMAIL_TEMPLATES_PATH,
                      lazy: async () => ({
                        Component: (await import('../features/email-templates/routes/email-templates-route'))
                          .EmailTemplatesRoute,
                      }),
                    },
                  ],
                },
                {
                  path: NEW_EMAIL_TEMPLATE_PATH,
                  lazy: async () => ({
                    Component: (
                      await import('../features/email-templates/routes/email-template-editor-route')
                    ).NewEmailTemplateRoute,
                  }),
                },
                {
                  path: `${EMAIL_TEMPLATES_PATH}/:templateId`,
                  lazy: async () => ({
                    Component: (
                      await import('../features/email-templates/routes/email-template-editor-route')
                    ).EmailTemplateEditorRoute,
                  }),
                },
              ],
            },
            {
              path: AI_TEMPLATE_PATH,
              lazy: async () => ({
                Component: (await import('../features/email-templates/routes/ai-template-route'))
                  .AiTemplateRoute,
              }),
            },
            {
              // A tab per channel and each send's page; an agent's runs and each run's page.
              path: EVENT_LOGS_PATH,
              children: [
                // Never rendered: the loader always redirects.
                { index: true, loader: eventLogsIndexLoader, element: null },
                {
                  lazy: areaTabs(
                    'eventLogs',
                    EVENT_LOG_TABS.map((channel) => ({ channel, to: eventLogsPath(channel) })),
                  ),
                  children: EVENT_LOG_TABS.map((channel) => ({
                    path: EVENT_LOG_SEGMENTS[channel],
                    lazy: eventLogsLazy(channel),
                  })),
                },
                ...EVENT_LOG_TABS.map((channel) => ({
                  path: `${EVENT_LOG_SEGMENTS[channel]}/:trackingId`,
                  lazy: eventLogLazy(channel),
                })),
                {
                  path: 'agents/:agentId',
                  lazy: async () => ({
                    Component: (await import('../features/agents/routes/agent-runs-route')).AgentRunsRoute,
                  }),
                },
                {
                  path: 'agents/:agentId/:channel/:runId',
                  lazy: async () => ({
                    Component: (await import('../features/agents/routes/agent-run-route')).AgentRunRoute,
                  }),
                },
                {
                  // The spec's /engage/event-logs/{id}: finds the send's channel and opens its page.
                  path: ':trackingId',
                  lazy: async () => ({
                    Component: (await import('../features/event-logs/routes/event-log-lookup-route'))
                      .EventLogLookupRoute,
                  }),
                },
              ],
            },
            {
              path: DIRECTORY_PATH,
              lazy: async () => ({
                Component: (await import('../features/directory/routes/directory-route')).DirectoryRoute,
              }),
            },
            {
              path: LISTS_PATH,
              lazy: async () => ({
                Component: (await import('../features/customer-lists/routes/lists-route')).ListsRoute,
              }),
            },
            {
              path: DIRECTORY_IMPORT_PATH,
              lazy: async () => ({
                Component: (await import('../features/customer-imports/routes/import-route')).ImportRoute,
              }),
            },
            {
              path: `${LISTS_PATH}/:id`,
              lazy: async () => ({
                Component: (await import('../features/customer-lists/routes/list-route')).ListRoute,
              }),
            },
            {
              path: `${DIRECTORY_PATH}/visitor/:details`,
              lazy: async () => ({
                Component: (await import('../features/directory/routes/visitor-route')).VisitorRoute,
              }),
            },
            {
              path: `${EMBED_SETTINGS_PATH}/b/:businessSlug`,
              lazy: async () => ({
                Component: (await import('../features/chat-groups/routes/business-embed-route'))
                  .BusinessEmbedRoute,
              }),
            },
            {
              path: `${EMBED_SETTINGS_PATH}/g/:groupSlug`,
              lazy: async () => ({
                Component: (await import('../features/chat-groups/routes/group-embed-route')).GroupEmbedRoute,
              }),
            },
            {
              // The settings shell (heading and tabs) around each tab. Chat groups (the Titan Message
              // feature) and WhatsApp are composed in here: features never import each other.
              path: SETTINGS_PATH,
              lazy: async () => ({
                Component: (await import('../features/settings/routes/settings-layout')).SettingsLayout,
              }),
              children: [
                { index: true, element: <Navigate to={settingsPath('business')} replace /> },
                {
                  path: 'chat-groups',
                  lazy: async () => ({
                    Component: (await import('../features/chat-groups/routes/chat-groups-settings-route'))
                      .ChatGroupsSettingsRoute,
                  }),
                },
                {
                  path: 'whatsapp',
                  lazy: async () => ({
                    Component: (await import('../features/whatsapp/routes/whatsapp-settings-route'))
                      .WhatsappSettingsRoute,
                  }),
                },
                {
                  path: 'sms',
                  lazy: async () => ({
                    Component: (await import('../features/sms/routes/sms-settings-route')).SmsSettingsRoute,
                  }),
                },
                {
                  path: 'email-domains',
                  lazy: async () => ({
                    Component: (await import('../features/email-domains/routes/email-domains-settings-route'))
                      .EmailDomainsSettingsRoute,
                  }),
                },
                {
                  path: 'billing',
                  lazy: async () => ({
                    Component: (await import('../features/billing/routes/billing-settings-route'))
                      .BillingSettingsRoute,
                  }),
                },
                {
                  path: 'qr-form',
                  lazy: async () => ({
                    Component: (await import('../features/qr-forms/routes/qr-form-settings-route'))
                      .QrFormSettingsRoute,
                  }),
                },
                {
                  path: 'ai-model',
                  lazy: async () => ({
                    Component: (await import('../features/llm/routes/llm-settings-route')).LlmSettingsRoute,
                  }),
                },
                {
                  path: 'mcp-servers',
                  lazy: async () => ({
                    Component: (await import('../features/outside-tools/routes/mcp-servers-settings-route'))
                      .McpServersSettingsRoute,
                  }),
                },
                {
                  path: 'mcp-servers/callback',
                  lazy: async () => ({
                    Component: (await import('../features/outside-tools/routes/mcp-callback-route'))
                      .McpCallbackRoute,
                  }),
                },
                {
                  path: 'plugins',
                  lazy: async () => ({
                    Component: (await import('../features/outside-tools/routes/plugins-settings-route'))
                      .PluginsSettingsRoute,
                  }),
                },
                {
                  path: 'plugins/callback',
                  lazy: async () => ({
                    Component: (await import('../features/outside-tools/routes/plugin-callback-route'))
                      .PluginCallbackRoute,
                  }),
                },
                {
                  path: ':tab',
                  lazy: async () => ({
                    Component: (await import('../features/settings/routes/settings-route')).SettingsRoute,
                  }),
                },
              ],
            },
          ],
        },
        {
          path: '*',
          lazy: async () => ({
            Component: (await import('./routes/not-found-route')).NotFoundRoute,
          }),
        },
      ],
    },
  ];
}

export function createAppRouter(queryClient: QueryClient) {
  return createBrowserRouter(createRoutes(queryClient));
}
