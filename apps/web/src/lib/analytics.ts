// First-party analytics (spec section 8): the browser reports ERROR events to the API.
// Uses fetch with keepalive rather than the API client so a report survives an immediate reload
// ("Try Again") and never triggers the client's session handling.
import { ZRecordAnalyticsEventRequest } from '@titan/contracts';

export const ANALYTICS_EVENTS_PATH = '/api/analytics/events/';

// The contract's limits: a longer value would fail validation and lose the whole report.
const MAX_MESSAGE_CHARS = 2000;
const MAX_STACK_CHARS = 20_000;
const MAX_URL_CHARS = 2000;
// Browsers refuse keepalive bodies over 64 KiB; larger reports go without it.
const KEEPALIVE_MAX_BYTES = 60_000;

export type TErrorDetails = {
  message: string;
  stack?: string | undefined;
  status?: number | undefined;
};

/** Reports an error once to the analytics endpoint. Never throws: failures go to the console. */
export async function reportError(details: TErrorDetails): Promise<void> {
  try {
    const parsed = ZRecordAnalyticsEventRequest.safeParse({
      event: 'ERROR',
      properties: {
        message: details.message.slice(0, MAX_MESSAGE_CHARS),
        ...(details.stack ? { stack: details.stack.slice(0, MAX_STACK_CHARS) } : {}),
        url: window.location.href.slice(0, MAX_URL_CHARS),
        ...(details.status === undefined ? {} : { status: details.status }),
      },
    });
    if (!parsed.success) {
      console.error('Error report is not a valid analytics event', parsed.error);
      return;
    }
    const body = JSON.stringify(parsed.data);
    const response = await fetch(ANALYTICS_EVENTS_PATH, {
      method: 'POST',
      headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
      body,
      credentials: 'same-origin',
      keepalive: new TextEncoder().encode(body).byteLength <= KEEPALIVE_MAX_BYTES,
    });
    if (!response.ok) console.error(`Error report was refused with HTTP ${response.status}`);
  } catch (failure) {
    console.error('Error report could not be sent', failure);
  }
}
