// Graph API errors as Meta shapes them. Clients branch on `code`, so each known code carries the
// message, title and details Meta documents for it; HTTP statuses follow Graph (401 for tokens,
// 429 for throughput, 400 otherwise).
import { randomBytes } from 'node:crypto';

type CatalogueEntry = { message: string; title: string; details: string };

const CATALOGUE: Record<number, CatalogueEntry> = {
  4: {
    message: '(#4) Application request limit reached',
    title: 'Too many calls',
    details: 'The app has reached its API call rate limit.',
  },
  100: {
    message: '(#100) Invalid parameter',
    title: 'Invalid parameter',
    details: 'The request included one or more unsupported or misspelled parameters.',
  },
  190: {
    message: 'Invalid OAuth access token - Cannot parse access token',
    title: 'Access token has expired',
    details: 'Your access token has expired.',
  },
  80007: {
    message: '(#80007) There have been too many calls to this WhatsApp Business account.',
    title: 'Rate limit issues',
    details: 'The WhatsApp Business Account has reached its rate limit.',
  },
  130429: {
    message: '(#130429) Rate limit hit',
    title: 'Rate limit hit',
    details: 'Cloud API message throughput has been reached.',
  },
  131000: {
    message: '(#131000) Something went wrong',
    title: 'Something went wrong',
    details: 'Message failed to send due to an unknown error.',
  },
  131008: {
    message: '(#131008) Required parameter is missing',
    title: 'Required parameter is missing',
    details: 'The request is missing a required parameter.',
  },
  131009: {
    message: '(#131009) Parameter value is not valid',
    title: 'Parameter value is not valid',
    details: 'One or more parameter values are invalid.',
  },
  131026: {
    message: '(#131026) Message undeliverable',
    title: 'Message undeliverable',
    details: 'Unable to deliver message.',
  },
  131047: {
    message: '(#131047) Re-engagement message',
    title: 'Re-engagement message',
    details:
      'Message failed to send because more than 24 hours have passed since the customer last replied to this number.',
  },
  131048: {
    message: '(#131048) Spam rate limit hit',
    title: 'Spam rate limit hit',
    details:
      'Message failed to send because there are restrictions on how many messages can be sent from this phone number.',
  },
  131051: {
    message: '(#131051) Unsupported message type',
    title: 'Unsupported message type',
    details: 'Message type is not currently supported.',
  },
  131053: {
    message: '(#131053) Media upload error',
    title: 'Media upload error',
    details: 'Unable to upload the media used in the message.',
  },
  131056: {
    message: '(#131056) (Business Account, Consumer Account) pair rate limit hit',
    title: '(Business Account, Consumer Account) pair rate limit hit',
    details:
      'Message failed to send because there were too many messages sent from this phone number to the same phone number in a short period of time.',
  },
  132000: {
    message: '(#132000) Number of parameters does not match the expected number of params',
    title: 'Number of parameters does not match the expected number of params',
    details:
      'The number of variable parameter values does not match the number of variables in the template.',
  },
  132001: {
    message: '(#132001) Template name does not exist in the translation',
    title: 'Template name does not exist in the translation',
    details: 'The template does not exist in the specified language or has not been approved.',
  },
  132012: {
    message: '(#132012) Parameter format does not match format in the created template',
    title: 'Parameter format does not match format in the created template',
    details: 'Variable parameter values are formatted incorrectly.',
  },
  132015: {
    message: '(#132015) Template is Paused',
    title: 'Template is Paused',
    details: 'The template has been paused due to low quality.',
  },
  132016: {
    message: '(#132016) Template is Disabled',
    title: 'Template is Disabled',
    details: 'The template has been disabled due to low quality.',
  },
  133010: {
    message: '(#133010) Account not registered',
    title: 'Account not registered',
    details: 'The phone number is not registered on the WhatsApp Business Platform.',
  },
};

export function describeCode(code: number): CatalogueEntry {
  return (
    CATALOGUE[code] ?? { message: `(#${code}) Error`, title: 'Error', details: `Simulated error ${code}.` }
  );
}

export function httpStatusFor(code: number): number {
  if (code === 190) return 401;
  if (code === 130429 || code === 131056 || code === 4 || code === 80007) return 429;
  return 400;
}

export class GraphError extends Error {
  constructor(
    readonly code: number,
    readonly details?: string,
    readonly overrideMessage?: string,
    readonly subcode?: number,
  ) {
    super(overrideMessage ?? describeCode(code).message);
  }

  get httpStatus(): number {
    return httpStatusFor(this.code);
  }

  toBody(): { error: Record<string, unknown> } {
    const entry = describeCode(this.code);
    return {
      error: {
        message: this.message,
        type: 'OAuthException',
        code: this.code,
        ...(this.subcode ? { error_subcode: this.subcode } : {}),
        error_data: { messaging_product: 'whatsapp', details: this.details ?? entry.details },
        fbtrace_id: fbtraceId(),
      },
    };
  }
}

/** Graph's answer for an id that is not this account's object. */
export function unknownObject(method: string, id: string): GraphError {
  return new GraphError(
    100,
    undefined,
    `Unsupported ${method.toLowerCase()} request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation. Please read the Graph API documentation at https://developers.facebook.com/docs/graph-api`,
    33,
  );
}

export const invalidParameter = (details: string): GraphError => new GraphError(100, details);

/** The `errors[]` item of a failed status or an unsupported inbound message. */
export function webhookError(
  code: number,
  overrides: { title?: string; message?: string; details?: string } = {},
) {
  const entry = describeCode(code);
  return {
    code,
    title: overrides.title ?? entry.title,
    message: overrides.message ?? entry.title,
    error_data: { details: overrides.details ?? entry.details },
    href: 'https://developers.facebook.com/docs/whatsapp/cloud-api/support/error-codes/',
  };
}

const fbtraceId = () => randomBytes(17).toString('base64').replace(/[+/=]/g, '').slice(0, 23);
