// Twilio's error codes as staff read them (https://www.twilio.com/docs/api/errors), branched on
// the code, never on Twilio's wording.

/** Codes worth another attempt later: rate limits and Twilio's own trouble. */
export const TRANSIENT_TWILIO_CODES = new Set([20429, 20500, 20503, 30001]);

export function describeTwilioError(code: number | null, fallback?: string | null): string {
  const said = fallback ? ` (Twilio: ${fallback})` : '';
  switch (code) {
    case null:
      return fallback || 'Twilio could not be reached. Try again.';
    case 21211:
      return 'The number is not a valid phone number.';
    case 21214:
    case 21612:
      return 'The number cannot be reached by text message.';
    case 21408:
      return 'This Twilio account may not send text messages to that country (enable it in Twilio’s geo permissions).';
    case 21606:
    case 21659:
    case 21212:
      return 'The sender number is not an SMS-capable number of this Twilio account. Check it in Settings → SMS.';
    case 21610:
      return 'The recipient replied STOP to this sender: Twilio delivers nothing to them until they reply START.';
    case 21614:
      return 'The number is not a mobile number and cannot receive text messages.';
    case 21602:
      return 'The message is empty.';
    case 21617:
      return 'The message is longer than 1,600 characters.';
    case 21703:
    case 21704:
    case 21705:
      return 'The Messaging Service cannot send this message. Check it in Settings → SMS.';
    case 20003:
      return 'Twilio refused the account’s credentials. Update them in Settings → SMS.';
    case 20404:
      return 'Twilio does not know this account or message.';
    case 20429:
      return 'Twilio is rate limiting this account: too many requests at once.';
    case 20500:
    case 20503:
      return 'Twilio had a temporary problem. Try again.';
    case 30001:
      return 'Twilio’s queue for this sender overflowed: too many messages at once.';
    case 30002:
      return 'The Twilio account is suspended.';
    case 30003:
      return 'The phone is unreachable: it may be switched off or out of coverage.';
    case 30004:
      return 'The message was blocked: the recipient or their carrier blocks messages from this sender.';
    case 30005:
      return 'Unknown number: it does not exist or is no longer in service.';
    case 30006:
      return 'The number is a landline or its carrier cannot be reached by text message.';
    case 30007:
      return 'The carrier filtered the message as spam or unwanted.';
    case 30008:
      return 'The carrier reported an unknown error.';
    default:
      return `Twilio refused the message (error ${code})${said}.`;
  }
}
