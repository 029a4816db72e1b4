// Which business the app works in: the business_code cookie when it names one of the user's
// businesses, otherwise the first of them (or none: the user has to create or join one).
import type { TMembershipSummary } from '@titan/contracts';

import { useProfile } from './profile';
import { readBusinessCode, saveBusinessCode } from './tokens';

export function chooseBusiness(
  businesses: readonly TMembershipSummary[],
  preferredCode: string | null,
): TMembershipSummary | null {
  return businesses.find((business) => business.unique_code === preferredCode) ?? businesses[0] ?? null;
}

/** Picks the current business and keeps the cookie in step with the choice. */
export function selectCurrentBusiness(businesses: readonly TMembershipSummary[]): TMembershipSummary | null {
  const current = readBusinessCode();
  const chosen = chooseBusiness(businesses, current);
  if (chosen && chosen.unique_code !== current) saveBusinessCode(chosen.unique_code);
  return chosen;
}

/** The signed-in user's membership in the current business, once the profile is loaded. */
export function useCurrentMembership(): TMembershipSummary | null {
  const { data } = useProfile();
  return data ? chooseBusiness(data.businesses, readBusinessCode()) : null;
}
