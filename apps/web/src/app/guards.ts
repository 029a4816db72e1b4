// Route guards (spec sections 2 and 6), run as loaders before a protected screen renders:
// signed out → /login?next=<the page asked for>; signed in without a business → /register-business.
// The business_code cookie must name one of the profile's businesses, else the first is chosen.
import type { QueryClient } from '@tanstack/react-query';
import type { TMembershipSummary } from '@titan/contracts';
import { redirect, type LoaderFunctionArgs } from 'react-router';

import { authPath, LOGIN_PATH, REGISTER_BUSINESS_PATH } from '../config/paths';
import { HandledApiError } from '../lib/api-errors';
import { selectCurrentBusiness } from '../lib/session/current-business';
import { profileQueryOptions, type TProfile } from '../lib/session/profile';
import { hasSession } from '../lib/session/tokens';
import { useSessionStore } from '../stores/session';

export type TSessionContext = { profile: TProfile };
export type TBusinessContext = TSessionContext & { membership: TMembershipSummary };

function requestedPath(request: Request): string {
  const url = new URL(request.url);
  return `${url.pathname}${url.search}${url.hash}`;
}

async function loadProfile(queryClient: QueryClient): Promise<TProfile> {
  try {
    const profile = await queryClient.ensureQueryData(profileQueryOptions());
    useSessionStore.getState().setUser(profile);
    return profile;
  } catch (failure) {
    // The session was refused and logout is already taking the page away: render nothing meanwhile.
    if (failure instanceof HandledApiError && failure.reason === 'logged_out') return new Promise(() => {});
    throw failure;
  }
}

export function createSessionLoader(queryClient: QueryClient) {
  return async ({ request }: LoaderFunctionArgs): Promise<TSessionContext> => {
    if (!hasSession()) throw redirect(authPath(LOGIN_PATH, { next: requestedPath(request) }));
    return { profile: await loadProfile(queryClient) };
  };
}

export function createBusinessLoader(queryClient: QueryClient) {
  const sessionLoader = createSessionLoader(queryClient);
  return async (args: LoaderFunctionArgs): Promise<TBusinessContext> => {
    const { profile } = await sessionLoader(args);
    const membership = selectCurrentBusiness(profile.businesses);
    if (!membership) throw redirect(REGISTER_BUSINESS_PATH);
    return { profile, membership };
  };
}
