// One SMTP thread (node:worker_threads, started by smtp-threads.ts): builds each message's MIME,
// DKIM-signs it and sends it over this thread's own pooled connections — the costly part of a mail
// (RSA signing, MIME streams, socket writes), off the main thread so every core works. Answers each
// message with the server's reply, or the error's fields the adapter classifies (code,
// responseCode, response).
import { parentPort, workerData } from 'node:worker_threads';
import { HeapCeiling } from '../../platform/heap';
import { deliverOver, messageBuilder, pooledSmtp, type EmailPayload } from './email-smtp.message';

export type SmtpThreadData = { url: string; maxConnections: number };
export type SmtpThreadRequest = { id: number; payload: EmailPayload } | { id: 0; close: true };
export type SmtpThreadError = {
  message: string;
  code?: string;
  responseCode?: number;
  response?: string;
  command?: string;
};
export type SmtpThreadReply = { id: number; response: string } | { id: number; error: SmtpThreadError };

/**
 * Each message (its payload, MIME buffer, signature) lives across its SMTP round trips and is
 * then garbage; the thread's heap may grow this much before a full collection (platform/heap.ts),
 * where V8 let it reach 3–4× its ~12 MiB live size during a campaign.
 */
const HEAP_HEADROOM_BYTES = 8 * 2 ** 20;

const port = parentPort;
if (port) {
  const { url, maxConnections } = workerData as SmtpThreadData;
  const transporter = pooledSmtp(url, maxConnections);
  const builder = messageBuilder();
  const heap = new HeapCeiling(HEAP_HEADROOM_BYTES);
  port.on('message', (request: SmtpThreadRequest) => {
    if ('close' in request) {
      transporter.close();
      port.close();
      return;
    }
    deliverOver(transporter, builder, request.payload).then(
      (response) => {
        port.postMessage({ id: request.id, response } satisfies SmtpThreadReply);
        heap.check();
      },
      (err: unknown) => {
        const e = (err ?? {}) as Partial<SmtpThreadError>;
        const error: SmtpThreadError = { message: e.message ?? String(err) };
        if (typeof e.code === 'string') error.code = e.code;
        if (typeof e.responseCode === 'number') error.responseCode = e.responseCode;
        if (typeof e.response === 'string') error.response = e.response;
        if (typeof e.command === 'string') error.command = e.command;
        port.postMessage({ id: request.id, error } satisfies SmtpThreadReply);
      },
    );
  });
}
