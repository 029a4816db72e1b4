// After a successful login (password or OpenID Connect): keep the tokens, drop any cached data of a
// previous user, and continue to the page asked for.
import { useQueryClient } from '@tanstack/react-query';
import type { TTokenPair } from '@titan/contracts';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';

import { DASHBOARD_PATH, safeNextPath } from '../../../config/paths';
import { saveTokens } from '../../../lib/session/tokens';
import { forgetPendingNext } from './pending-next';

export function useStartSession() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useCallback(
    (tokens: TTokenPair, next: string | null) => {
      saveTokens(tokens);
      forgetPendingNext();
      queryClient.clear();
      void navigate(safeNextPath(next) ?? DASHBOARD_PATH, { replace: true });
    },
    [navigate, queryClient],
  );
}
