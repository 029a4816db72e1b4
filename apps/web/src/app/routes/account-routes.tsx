// Signed in, no business needed yet: two-factor set-up, registering or joining a business, the payment return.
import { type RouteObject } from 'react-router';

import { JOIN_BUSINESS_PATH, REGISTER_BUSINESS_PATH, TWO_FACTOR_SETUP_PATH } from '../../config/paths';
import { type TRouteHandle } from '../document-title';
import { PAGE_TITLES as T } from '../strings';

export const ACCOUNT_ROUTES: RouteObject[] = [
  {
    path: TWO_FACTOR_SETUP_PATH,
    lazy: async () => ({
      Component: (await import('../../features/settings/routes/two-factor-setup-route')).TwoFactorSetupRoute,
    }),
  },
  {
    path: REGISTER_BUSINESS_PATH,
    handle: { title: T.registerBusiness } satisfies TRouteHandle,
    lazy: async () => ({
      Component: (await import('../../features/onboarding/routes/register-business-route'))
        .RegisterBusinessRoute,
    }),
  },
  {
    path: JOIN_BUSINESS_PATH,
    handle: { title: T.joinBusiness } satisfies TRouteHandle,
    lazy: async () => ({
      Component: (await import('../../features/onboarding/routes/join-business-route')).JoinBusinessRoute,
    }),
  },
  {
    path: '/confirm-payment/:payment_status',
    handle: { title: T.payment } satisfies TRouteHandle,
    lazy: async () => ({
      Component: (await import('../../features/billing/routes/confirm-payment-route')).ConfirmPaymentRoute,
    }),
  },
];
