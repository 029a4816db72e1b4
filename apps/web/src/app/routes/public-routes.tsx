// Public screens and the signed-out ones: sign-in, sign-up, password reset, the pages reached from an email or a QR code, and the development outbox.
import { redirect, type RouteObject } from 'react-router';

import {
  AUTH_FLOW_PATH,
  DASHBOARD_PATH,
  safeNextPath,
  DEV_OUTBOX_PATH,
  DNS_HELP_PATH,
  FORGOT_PASSWORD_PATH,
  LOGIN_PATH,
  SIGNUP_PATH,
  CSAT_PATH,
  UNSUBSCRIBE_PATH,
  CONFIRM_SUBSCRIPTION_PATH,
  OPT_IN_CONFIRM_PATH,
  PREFERENCES_PATH,
  QR_FORM_PUBLIC_PATH,
  HELP_CENTRE_PATH,
} from '../../config/paths';
import { hasSession } from '../../lib/session/tokens';
import { type TRouteHandle } from '../document-title';
import { PAGE_TITLES as T } from '../strings';

/** Login and sign-up are for signed-out people: a signed-in one goes where they were heading. */
function guestLoader({ request }: { request: Request }) {
  if (!hasSession()) return null;
  return redirect(safeNextPath(new URL(request.url).searchParams.get('next')) ?? DASHBOARD_PATH);
}

export const PUBLIC_ROUTES: RouteObject[] = [
  {
    path: LOGIN_PATH,
    handle: { title: T.login } satisfies TRouteHandle,
    loader: guestLoader,
    lazy: async () => ({ Component: (await import('../../features/auth/routes/login-route')).LoginRoute }),
  },
  {
    path: SIGNUP_PATH,
    handle: { title: T.signup } satisfies TRouteHandle,
    loader: guestLoader,
    lazy: async () => ({
      Component: (await import('../../features/auth/routes/signup-route')).SignupRoute,
    }),
  },
  {
    path: FORGOT_PASSWORD_PATH,
    handle: { title: T.forgotPassword } satisfies TRouteHandle,
    lazy: async () => ({
      Component: (await import('../../features/auth/routes/forgot-password-route')).ForgotPasswordRoute,
    }),
  },
  {
    path: `${FORGOT_PASSWORD_PATH}/:encodedEmail/:key`,
    handle: { title: T.resetPassword } satisfies TRouteHandle,
    lazy: async () => ({
      Component: (await import('../../features/auth/routes/reset-password-route')).ResetPasswordRoute,
    }),
  },
  {
    path: AUTH_FLOW_PATH,
    handle: { title: T.signingIn } satisfies TRouteHandle,
    lazy: async () => ({
      Component: (await import('../../features/auth/routes/auth-flow-route')).AuthFlowRoute,
    }),
  },
  {
    path: '/auth/account-confirm-email/:token',
    handle: { title: T.confirmEmail } satisfies TRouteHandle,
    lazy: async () => ({
      Component: (await import('../../features/auth/routes/confirm-email-route')).ConfirmEmailRoute,
    }),
  },
  {
    // Development only: the page itself says so when the server keeps no outbox.
    path: DEV_OUTBOX_PATH,
    handle: { title: T.devOutbox } satisfies TRouteHandle,
    lazy: async () => ({
      Component: (await import('../../features/dev-outbox/routes/outbox-route')).OutboxRoute,
    }),
  },
  {
    // Public: a business's DNS admin may follow it without a Titan account.
    path: DNS_HELP_PATH,
    handle: { title: T.dnsHelp } satisfies TRouteHandle,
    lazy: async () => ({
      Component: (await import('../../features/email-domains/routes/dns-help-route')).DnsHelpRoute,
    }),
  },
  {
    // Public: the rating link of a resolved conversation's survey, no session needed.
    path: `${CSAT_PATH}/:token`,
    handle: { title: T.csat } satisfies TRouteHandle,
    lazy: async () => ({
      Component: (await import('../../features/csat/routes/csat-route')).CsatRoute,
    }),
  },
  {
    // Public: reached from the link in an email, no session needed.
    path: UNSUBSCRIBE_PATH,
    handle: { title: T.unsubscribe } satisfies TRouteHandle,
    lazy: async () => ({
      Component: (await import('../../features/unsubscribe/routes/unsubscribe-route')).UnsubscribeRoute,
    }),
  },
  {
    // Public: reached from the double opt-in mail, no session needed.
    path: CONFIRM_SUBSCRIPTION_PATH,
    handle: { title: T.confirmSubscription } satisfies TRouteHandle,
    lazy: async () => ({
      Component: (await import('../../features/qr-forms/routes/confirm-subscription-route'))
        .ConfirmSubscriptionRoute,
    }),
  },
  {
    // Public: the preference centre behind a business's mail (the page sets its own title).
    path: `${PREFERENCES_PATH}/:token`,
    handle: { title: T.preferences } satisfies TRouteHandle,
    lazy: async () => ({
      Component: (await import('../../features/consent-pages/routes/preferences-route')).PreferencesRoute,
    }),
  },
  {
    // Public: the link of a list's double opt-in mail (the page sets its own title).
    path: `${OPT_IN_CONFIRM_PATH}/:token`,
    handle: { title: T.confirmSubscription } satisfies TRouteHandle,
    lazy: async () => ({
      Component: (await import('../../features/consent-pages/routes/confirm-route')).OptInConfirmRoute,
    }),
  },
  {
    // Public: the visitor form a QR code opens.
    path: QR_FORM_PUBLIC_PATH,
    handle: { title: T.qrForm } satisfies TRouteHandle,
    lazy: async () => ({
      Component: (await import('../../features/qr-forms/routes/public-qr-form-route')).PublicQrFormRoute,
    }),
  },
  {
    path: '/invite-user/join/:details',
    handle: { title: T.invitation } satisfies TRouteHandle,
    lazy: async () => ({
      Component: (await import('../../features/onboarding/routes/invitation-route')).InvitationRoute,
    }),
  },
  {
    // Public: a business's help centre and its articles (the page sets its own title).
    path: `${HELP_CENTRE_PATH}/:businessSlug`,
    handle: { title: T.helpCentre } satisfies TRouteHandle,
    lazy: async () => ({
      Component: (await import('../../features/help-centre/routes/help-centre-route')).HelpCentreRoute,
    }),
  },
  {
    path: `${HELP_CENTRE_PATH}/:businessSlug/articles/:article`,
    handle: { title: T.helpCentre } satisfies TRouteHandle,
    lazy: async () => ({
      Component: (await import('../../features/help-centre/routes/help-centre-route')).HelpCentreArticleRoute,
    }),
  },
];
