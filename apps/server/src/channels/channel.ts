// The one interface every channel adapter offers (engage.md §1). Modules never call a provider
// directly: they record a send, then hand it to its channel's adapter.

/** A provider's answer to one send. */
export type SendOutcome =
  | { ok: true; providerMessageId: string | null; response: Record<string, unknown> | null }
  | {
      ok: false;
      /** The provider's code, as text (Meta's numbers, SMTP's reply codes, …). */
      errorCode: string | null;
      /** What staff read. */
      errorMessage: string;
      response: Record<string, unknown> | null;
      /** The provider's own error, for callers that answer with it. */
      cause: unknown;
    };

/** One status or event a provider reported about a message it accepted. */
export type ParsedEvent = {
  providerMessageId: string;
  type: string;
  /** Unix seconds, when the provider said. */
  timestamp: number | null;
  payload: Record<string, unknown>;
};

export type ChannelAdapter<Account, Payload> = {
  send(account: Account, payload: Payload): Promise<SendOutcome>;
  parseEvents(raw: unknown): ParsedEvent[];
  describeError(code: string | null, fallback?: string | null): string;
};
