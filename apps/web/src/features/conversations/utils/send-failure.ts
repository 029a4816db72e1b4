// What a failed WhatsApp send says (spec section 8): the server's message for a refusal (409 window
// closed, 429 rate limited, other 4xx), the timeout text, otherwise "Failed to send message. Please
// try again.". Handled failures (logged out, blocker modal) say nothing more.
import { apiErrorMessage, describeApiFailure } from '../../../lib/api-errors';
import { CONVERSATIONS_STRINGS as S } from '../strings';

export function sendFailureMessage(error: unknown): string | null {
  const failure = describeApiFailure(error);
  if (failure.kind === 'handled') return null;
  if (failure.kind === 'timeout') return failure.message;
  if (failure.kind === 'response' && failure.status >= 400 && failure.status < 500)
    return apiErrorMessage(error, S.sendFailed);
  return S.sendFailed;
}
