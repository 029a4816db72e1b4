// Meta's error codes as staff read them: branched on `code`, never on HTTP status or titles.

/** What staff read for a Graph error, by code. */
export function describeGraphError(code: number | null, fallback?: string | null): string {
  if (code === null) return fallback || 'WhatsApp could not be reached. Try again.';
  if (code >= 132000 && code <= 132018) {
    return code === 132001
      ? 'This template does not exist in that language at WhatsApp. Sync templates and try again.'
      : code === 132000
        ? "The template's parameters do not match what it expects."
        : 'WhatsApp refused the template: ' + (fallback || `error ${code}`) + '.';
  }
  switch (code) {
    case 131047:
      return 'More than 24 hours have passed since the customer last replied. Send an approved template instead.';
    case 131026:
      return 'The message could not be delivered to this number (not on WhatsApp, or an old app version).';
    case 131049:
      return 'WhatsApp chose not to deliver this message to keep engagement healthy. Try again later.';
    case 131051:
      return 'WhatsApp does not support this message type.';
    case 131053:
      return 'WhatsApp could not process the media: ' + (fallback || 'check its type and size') + '.';
    case 130429:
      return 'The number is sending faster than WhatsApp allows. Try again in a moment.';
    case 131056:
      return 'Too many messages to this customer in a short time. Wait a few seconds and try again.';
    case 131000:
    case 2:
      return 'WhatsApp had a temporary problem. Try again.';
    case 100:
      return 'WhatsApp refused a parameter: ' + (fallback || 'invalid parameter') + '.';
    case 190:
      return 'The WhatsApp access token has expired or is invalid. Update it in Settings → WhatsApp.';
    case 10:
    case 200:
      return 'The WhatsApp access token lacks the permission for this. Check the app at Meta.';
    case 4:
    case 80007:
      return 'Too many WhatsApp management calls this hour. Try again later.';
    default:
      return fallback
        ? `WhatsApp refused the request: ${fallback}`
        : `WhatsApp refused the request (error ${code}).`;
  }
}

/** The adapter's name for it (engage.md §1: describeError). */
export const describeError = describeGraphError;
