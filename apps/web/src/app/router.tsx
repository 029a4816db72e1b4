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
  SETTINGS_TABS,
  settingsPath,
  type TSettingsTab,
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
import { SETTINGS_STRINGS } from '../features/settings/strings';
import { type TRouteHandle } from './document-title';
import { NOT_FOUND_STRINGS, PAGE_TITLES as T, SHELL_STRINGS, type TArea } from './strings';

/** A settings tab's page title: "Billing · Settings". */
function settingsTitle(tab: TSettingsTab): string {
  return `${SETTINGS_STRINGS.tabs[tab]} · ${SETTINGS_STRINGS.heading}`;
}

/** The title of a settings tab the route table names by parameter. */
function settingsTabTitle(params: { tab?: string }): string {
  const tab = SETTINGS_TABS.find((t) => t === params.tab);
  return tab ? settingsTitle(tab) : SETTINGS_STRINGS.heading;
}

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
          handle: { title: T.login } satisfies TRouteHandle,
          loader: guestLoader,
          lazy: async () => ({ Component: (await import('../features/auth/routes/login-route')).LoginRoute }),
        },
        {
          path: SIGNUP_PATH,
          handle: { title: T.signup } satisfies TRouteHandle,
          loader: guestLoader,
          lazy: async () => ({
            Component: (await import('../features/auth/routes/signup-route')).SignupRoute,
          }),
        },
        {
          path: FORGOT_PASSWORD_PATH,
          handle: { title: T.forgotPassword } satisfies TRouteHandle,
          lazy: async () => ({
            Component: (await import('../features/auth/routes/forgot-password-route')).ForgotPasswordRoute,
          }),
        },
        {
          path: `${FORGOT_PASSWORD_PATH}/:encodedEmail/:key`,
          handle: { title: T.resetPassword } satisfies TRouteHandle,
          lazy: async () => ({
            Component: (await import('../features/auth/routes/reset-password-route')).ResetPasswordRoute,
          }),
        },
        {
          path: AUTH_FLOW_PATH,
          handle: { title: T.signingIn } satisfies TRouteHandle,
          lazy: async () => ({
            Component: (await import('../features/auth/routes/auth-flow-route')).AuthFlowRoute,
          }),
        },
        {
          path: '/auth/account-confirm-email/:token',
          handle: { title: T.confirmEmail } satisfies TRouteHandle,
          lazy: async () => ({
            Component: (await import('../features/auth/routes/confirm-email-route')).ConfirmEmailRoute,
          }),
        },
        {
          // Development only: the page itself says so when the server keeps no outbox.
          path: DEV_OUTBOX_PATH,
          handle: { title: T.devOutbox } satisfies TRouteHandle,
          lazy: async () => ({
            Component: (await import('../features/dev-outbox/routes/outbox-route')).OutboxRoute,
          }),
        },
        {
          // Public: a business's DNS admin may follow it without a Titan account.
          path: DNS_HELP_PATH,
          handle: { title: T.dnsHelp } satisfies TRouteHandle,
          lazy: async () => ({
            Component: (await import('../features/email-domains/routes/dns-help-route')).DnsHelpRoute,
          }),
        },
        {
          // Public: reached from the link in an email, no session needed.
          path: UNSUBSCRIBE_PATH,
          handle: { title: T.unsubscribe } satisfies TRouteHandle,
          lazy: async () => ({
            Component: (await import('../features/unsubscribe/routes/unsubscribe-route')).UnsubscribeRoute,
          }),
        },
        {
          // Public: reached from the double opt-in mail, no session needed.
          path: CONFIRM_SUBSCRIPTION_PATH,
          handle: { title: T.confirmSubscription } satisfies TRouteHandle,
          lazy: async () => ({
            Component: (await import('../features/qr-forms/routes/confirm-subscription-route'))
              .ConfirmSubscriptionRoute,
          }),
        },
        {
          // Public: the visitor form a QR code opens.
          path: QR_FORM_PUBLIC_PATH,
          handle: { title: T.qrForm } satisfies TRouteHandle,
          lazy: async () => ({
            Component: (await import('../features/qr-forms/routes/public-qr-form-route')).PublicQrFormRoute,
          }),
        },
        {
          path: '/invite-user/join/:details',
          handle: { title: T.invitation } satisfies TRouteHandle,
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
              handle: { title: T.registerBusiness } satisfies TRouteHandle,
              lazy: async () => ({
                Component: (await import('../features/onboarding/routes/register-business-route'))
                  .RegisterBusinessRoute,
              }),
            },
            {
              path: JOIN_BUSINESS_PATH,
              handle: { title: T.joinBusiness } satisfies TRouteHandle,
              lazy: async () => ({
                Component: (await import('../features/onboarding/routes/join-business-route'))
                  .JoinBusinessRoute,
              }),
            },
            {
              path: '/confirm-payment/:payment_status',
              handle: { title: T.payment } satisfies TRouteHandle,
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
              handle: { title: SHELL_STRINGS.areas.dashboard } satisfies TRouteHandle,
              lazy: async () => ({
                Component: (await import('../features/dashboard/routes/dashboard-route')).DashboardRoute,
              }),
            },
            {
              path: MESSAGES_PATH,
              handle: { title: SHELL_STRINGS.areas.conversations } satisfies TRouteHandle,
              lazy: async () => ({
                Component: (await import('../features/conversations/routes/messages-route')).MessagesRoute,
              }),
            },
            {
              path: AGENTS_PATH,
              handle: { title: SHELL_STRINGS.areas.agents } satisfies TRouteHandle,
              lazy: async () => ({
                Component: (await import('../features/agents/routes/agents-route')).AgentsRoute,
              }),
            },
            {
              path: NEW_AGENT_PATH,
              handle: { title: T.newAgent } satisfies TRouteHandle,
              lazy: async () => ({
                Component: (await import('../features/agents/routes/agent-route')).NewAgentRoute,
              }),
            },
            {
              path: `${AGENTS_PATH}/:id`,
              handle: { title: T.agent } satisfies TRouteHandle,
              lazy: async () => ({
                Component: (await import('../features/agents/routes/agent-route')).AgentRoute,
              }),
            },
            {
              // WhatsApp templates (the index) and email templates (a tab, and the editor's pages).
              path: TEMPLATES_PATH,
              handle: { title: SHELL_STRINGS.areas.templates } satisfies TRouteHandle,
              children: [
                {
                  lazy: areaTabs('templates', [
                    { channel: 'whatsapp', to: TEMPLATES_PATH },
                    { channel: 'email', to: EMAIL_TEMPLATES_PATH },
                  ]),
                  children: [
                    {
                      index: true,
                      handle: { title: T.whatsappTemplates } satisfies TRouteHandle,
                      lazy: async () => ({
                        Component: (await import('../features/whatsapp/routes/whatsapp-templates-route'))
                          .WhatsappTemplatesRoute,
                      }),
                    },
                    {
                      path: EMAIL_TEMPLATES_PATH,
                      handle: { title: T.emailTemplates } satisfies TRouteHandle,
                      lazy: async () => ({
                        Component: (await import('../features/email-templates/routes/email-templates-route'))
                          .EmailTemplatesRoute,
                      }),
                    },
                  ],
                },
                {
                  path: NEW_EMAIL_TEMPLATE_PATH,
                  handle: { title: T.newEmailTemplate } satisfies TRouteHandle,
                  lazy: async () => ({
                    Component: (
                      await import('../features/email-templates/routes/email-template-editor-route')
                    ).NewEmailTemplateRoute,
                  }),
                },
                {
                  path: `${EMAIL_TEMPLATES_PATH}/:templateId`,
                  handle: { title: T.emailTemplate } satisfies TRouteHandle,
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
              handle: { title: SHELL_STRINGS.areas.aiTemplate } satisfies TRouteHandle,
              lazy: async () => ({
                Component: (await import('../features/email-templates/routes/ai-template-route'))
                  .AiTemplateRoute,
              }),
            },
            {
              // A tab per channel and each send's page; an agent's runs and each run's page.
              path: EVENT_LOGS_PATH,
              handle: { title: SHELL_STRINGS.areas.eventLogs } satisfies TRouteHandle,
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
                    handle: { title: T.channelLog(channel) } satisfies TRouteHandle,
                    lazy: eventLogsLazy(channel),
                  })),
                },
                ...EVENT_LOG_TABS.map((channel) => ({
                  path: `${EVENT_LOG_SEGMENTS[channel]}/:trackingId`,
                  handle: { title: T.send } satisfies TRouteHandle,
                  lazy: eventLogLazy(channel),
                })),
                {
                  path: 'agents/:agentId',
                  handle: { title: T.runLog } satisfies TRouteHandle,
                  lazy: async () => ({
                    Component: (await import('../features/agents/routes/agent-runs-route')).AgentRunsRoute,
                  }),
                },
                {
                  path: 'agents/:agentId/:channel/:runId',
                  handle: { title: T.run } satisfies TRouteHandle,
                  lazy: async () => ({
                    Component: (await import('../features/agents/routes/agent-run-route')).AgentRunRoute,
                  }),
                },
                {
                  // The spec's /engage/event-logs/{id}: finds the send's channel and opens its page.
                  path: ':trackingId',
                  handle: { title: T.send } satisfies TRouteHandle,
                  lazy: async () => ({
                    Component: (await import('../features/event-logs/routes/event-log-lookup-route'))
                      .EventLogLookupRoute,
                  }),
                },
              ],
            },
            {
              path: DIRECTORY_PATH,
              handle: { title: SHELL_STRINGS.areas.directory } satisfies TRouteHandle,
              lazy: async () => ({
                Component: (await import('../features/directory/routes/directory-route')).DirectoryRoute,
              }),
            },
            {
              path: LISTS_PATH,
              handle: { title: T.lists } satisfies TRouteHandle,
              lazy: async () => ({
                Component: (await import('../features/customer-lists/routes/lists-route')).ListsRoute,
              }),
            },
            {
              path: DIRECTORY_IMPORT_PATH,
              handle: { title: T.importCustomers } satisfies TRouteHandle,
              lazy: async () => ({
                Component: (await import('../features/customer-imports/routes/import-route')).ImportRoute,
              }),
            },
            {
              path: `${LISTS_PATH}/:id`,
              handle: { title: T.list } satisfies TRouteHandle,
              lazy: async () => ({
                Component: (await import('../features/customer-lists/routes/list-route')).ListRoute,
              }),
            },
            {
              path: `${DIRECTORY_PATH}/visitor/:details`,
              handle: { title: T.visitor } satisfies TRouteHandle,
              lazy: async () => ({
                Component: (await import('../features/directory/routes/visitor-route')).VisitorRoute,
              }),
            },
            {
              path: `${EMBED_SETTINGS_PATH}/b/:businessSlug`,
              handle: { title: T.widgetEmbed } satisfies TRouteHandle,
              lazy: async () => ({
                Component: (await import('../features/chat-groups/routes/business-embed-route'))
                  .BusinessEmbedRoute,
              }),
            },
            {
              path: `${EMBED_SETTINGS_PATH}/g/:groupSlug`,
              handle: { title: T.groupEmbed } satisfies TRouteHandle,
              lazy: async () => ({
                Component: (await import('../features/chat-groups/routes/group-embed-route')).GroupEmbedRoute,
              }),
            },
            {
              // The settings shell (heading and tabs) around each tab. Chat groups (the Titan Message
              // feature) and WhatsApp are composed in here: features never import each other.
              path: SETTINGS_PATH,
              handle: { title: SHELL_STRINGS.areas.settings } satisfies TRouteHandle,
              lazy: async () => ({
                Component: (await import('../features/settings/routes/settings-layout')).SettingsLayout,
              }),
              children: [
                { index: true, element: <Navigate to={settingsPath('business')} replace /> },
                {
                  path: 'chat-groups',
                  handle: { title: settingsTitle('chat-groups') } satisfies TRouteHandle,
                  lazy: async () => ({
                    Component: (await import('../features/chat-groups/routes/chat-groups-settings-route'))
                      .ChatGroupsSettingsRoute,
                  }),
                },
                {
                  path: 'whatsapp',
                  handle: { title: settingsTitle('whatsapp') } satisfies TRouteHandle,
                  lazy: async () => ({
                    Component: (await import('../features/whatsapp/routes/whatsapp-settings-route'))
                      .WhatsappSettingsRoute,
                  }),
                },
                {
                  path: 'sms',
                  handle: { title: settingsTitle('sms') } satisfies TRouteHandle,
                  lazy: async () => ({
                    Component: (await import('../features/sms/routes/sms-settings-route')).SmsSettingsRoute,
                  }),
                },
                {
                  path: 'email-domains',
                  handle: { title: settingsTitle('email-domains') } satisfies TRouteHandle,
                  lazy: async () => ({
                    Component: (await import('../features/email-domains/routes/email-domains-settings-route'))
                      .EmailDomainsSettingsRoute,
                  }),
                },
                {
                  path: 'billing',
                  handle: { title: settingsTitle('billing') } satisfies TRouteHandle,
                  lazy: async () => ({
                    Component: (await import('../features/billing/routes/billing-settings-route'))
                      .BillingSettingsRoute,
                  }),
                },
                {
                  path: 'qr-form',
                  handle: { title: settingsTitle('qr-form') } satisfies TRouteHandle,
                  lazy: async () => ({
                    Component: (await import('../features/qr-forms/routes/qr-form-settings-route'))
                      .QrFormSettingsRoute,
                  }),
                },
                {
                  path: 'ai-model',
                  handle: { title: settingsTitle('ai-model') } satisfies TRouteHandle,
                  lazy: async () => ({
                    Component: (await import('../features/llm/routes/llm-settings-route')).LlmSettingsRoute,
                  }),
                },
                {
                  path: 'mcp-servers',
                  handle: { title: settingsTitle('mcp-servers') } satisfies TRouteHandle,
                  lazy: async () => ({
                    Component: (await import('../features/outside-tools/routes/mcp-servers-settings-route'))
                      .McpServersSettingsRoute,
                  }),
                },
                {
                  path: 'mcp-servers/callback',
                  handle: { title: settingsTitle('mcp-servers') } satisfies TRouteHandle,
                  lazy: async () => ({
                    Component: (await import('../features/outside-tools/routes/mcp-callback-route'))
                      .McpCallbackRoute,
                  }),
                },
                {
                  path: 'plugins',
                  handle: { title: settingsTitle('plugins') } satisfies TRouteHandle,
                  lazy: async () => ({
                    Component: (await import('../features/outside-tools/routes/plugins-settings-route'))
                      .PluginsSettingsRoute,
                  }),
                },
                {
                  path: 'plugins/callback',
                  handle: { title: settingsTitle('plugins') } satisfies TRouteHandle,
                  lazy: async () => ({
                    Component: (await import('../features/outside-tools/routes/plugin-callback-route'))
                      .PluginCallbackRoute,
                  }),
                },
                {
                  path: ':tab',
                  handle: { title: settingsTabTitle } satisfies TRouteHandle,
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
          handle: { title: NOT_FOUND_STRINGS.heading } satisfies TRouteHandle,
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
