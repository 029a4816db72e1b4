// One inbound thread (node:worker_threads, started by email.inbound-threads.ts): parses each message
// it is given (email.inbound-parse.ts: MIME, SPF/DKIM/DMARC, spam score, visible reply, sanitised
// HTML, attachments) and answers the result.
// Several messages are parsed at once (authentication waits on DNS); a failure is answered as one.
import { parentPort, workerData } from 'node:worker_threads';
import {
  parseInbound,
  type DnsSettings,
  type ParsedInbound,
  type SmtpSessionFacts,
} from './email.inbound-parse';

export type InboundThreadData = { dns: DnsSettings };
export type InboundThreadRequest =
  { id: number; raw: Uint8Array; session: SmtpSessionFacts; toInbox: boolean } | { id: 0; close: true };
export type InboundThreadReply = { id: number; parsed: ParsedInbound } | { id: number; error: string };

const port = parentPort;
if (port) {
  const { dns } = workerData as InboundThreadData;
  port.on('message', (request: InboundThreadRequest) => {
    if ('close' in request) {
      port.close();
      return;
    }
    const raw = Buffer.from(request.raw.buffer, request.raw.byteOffset, request.raw.byteLength);
    parseInbound(raw, request.session, { toInbox: request.toInbox, dns }).then(
      (parsed) =>
        // Copied, not moved: memory a thread allocated is freed by that thread (buffers handed over
        // and freed by the main thread fragmented the allocator: RSS climbed with the mails taken).
        port.postMessage({ id: request.id, parsed } satisfies InboundThreadReply),
      (err: unknown) =>
        port.postMessage({
          id: request.id,
          error: err instanceof Error ? err.message : String(err),
        } satisfies InboundThreadReply),
    );
  });
}
