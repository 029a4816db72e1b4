// After creating or joining a business: make it the current one, drop the profile (its business list
// changed) and every answer of the previous business, then open the dashboard. Public lookups stay:
// the invitation just accepted must not be fetched again.
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';

import { DASHBOARD_PATH } from '../../../config/paths';
import { BUSINESS_SCOPE } from '../../../lib/query-client';
import { profileQueryOptions } from '../../../lib/session/profile';
import { saveBusinessCode } from '../../../lib/session/tokens';

export function useEnterBusiness() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useCallback(
    (uniqueCode: string) => {
      saveBusinessCode(uniqueCode);
      queryClient.removeQueries({ queryKey: profileQueryOptions().queryKey });
      queryClient.removeQueries({ queryKey: [BUSINESS_SCOPE] });
      void navigate(DASHBOARD_PATH, { replace: true });
    },
    [navigate, queryClient],
  );
}
