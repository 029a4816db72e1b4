// POST /api/auth/password/change/ {current_password, new_password, new_password_confirm}: the
// signed-in member's new password; the server signs out their other sessions.
import { useMutation } from '@tanstack/react-query';
import type { TChangePasswordRequest } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';

export const CHANGE_PASSWORD_PATH = '/api/auth/password/change/';

export async function changePassword(body: TChangePasswordRequest): Promise<void> {
  await protectedClient.post(CHANGE_PASSWORD_PATH, body);
}

export function useChangePassword() {
  return useMutation({ mutationFn: changePassword });
}
