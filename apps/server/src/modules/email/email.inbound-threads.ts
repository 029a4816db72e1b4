// The inbound threads (email.inbound-thread.ts): the SMTP listener hands each message's bytes to
// the thread with the fewest in flight and records what it answers, so parsing, authentication
// and scoring (tens of milliseconds of CPU for a mail with attachments) never hold up the thread
// that takes SMTP and writes conversations. Nothing is acknowledged to the sender before it is
// recorded: a thread that dies, or takes longer than PARSE_TIMEOUT_MS on a message (it is then
// ended), fails what it held, the listener answers 451 and the sender's server tries again; the
// thread is started afresh on the next message.
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { startThread } from '../../platform/threads';
import { parseInbound, type ParsedInbound, type SmtpSessionFacts } from './email.inbound-parse';
import type { InboundThreadData, InboundThreadReply, InboundThreadRequest } from './email.inbound-thread';

/** One message's parse at most (a pathological MIME must not hold a thread for ever). */
export const PARSE_TIMEOUT_MS = 60_000;

/**
 * Threads: the cores but two (one for the listener, one for the PostgreSQL beside it), at most
 * four; none on two cores or fewer, where messages are parsed on the listener's thread: there is no
 * core to gain there, and a thread's own heap cost memory (the email-inbound benches on 2 cores:
 * same mails/s, RSS growth +10 MiB in process against +148 to +161 MiB with a thread).
 */
export const inboundThreadCount = () => Math.min(4, Math.max(0, availableParallelism() - 2));

type Pending = {
  worker: Worker;
  resolve: (parsed: ParsedInbound) => void;
  reject: (err: Error) => void;
  timer: NodeJS.Timeout;
};

class InboundThread {
  private worker: Worker | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;

  constructor(private readonly data: InboundThreadData) {}

  get inFlight(): number {
    return this.pending.size;
  }

  parse(raw: Buffer, session: SmtpSessionFacts, toInbox: boolean, timeoutMs: number): Promise<ParsedInbound> {
    const worker = (this.worker ??= this.start());
    const id = this.nextId++;
    return new Promise<ParsedInbound>((resolve, reject) => {
      const timer = setTimeout(() => {
        // The thread is ended: what it held fails (exit), and the next message starts a new one.
        if (this.worker === worker) this.worker = null;
        void worker.terminate();
        this.fail(worker, `no answer in ${timeoutMs} ms`);
      }, timeoutMs);
      timer.unref();
      this.pending.set(id, { worker, resolve, reject, timer });
      worker.postMessage({ id, raw, session, toInbox } satisfies InboundThreadRequest);
    });
  }

  private start(): Worker {
    const worker = startThread(
      import.meta.url,
      { built: 'inbound-thread.js', source: './email.inbound-thread.ts' },
      this.data,
    );
    // The process's own lifetime decides: a thread never keeps it running.
    worker.unref();
    worker.on('message', (reply: InboundThreadReply) => {
      const waiting = this.pending.get(reply.id);
      if (!waiting) return;
      this.pending.delete(reply.id);
      clearTimeout(waiting.timer);
      if ('parsed' in reply) waiting.resolve(reply.parsed);
      else waiting.reject(new Error(`The message could not be parsed: ${reply.error}`));
    });
    worker.on('error', (err) => this.fail(worker, err.message));
    worker.on('exit', (code) => this.fail(worker, `exit code ${code}`));
    return worker;
  }

  /** The thread is gone: everything it held fails (the listener answers 451); a newer one's stays. */
  private fail(worker: Worker, why: string): void {
    if (this.worker === worker) this.worker = null;
    for (const [id, p] of this.pending) {
      if (p.worker !== worker) continue;
      this.pending.delete(id);
      clearTimeout(p.timer);
      p.reject(new Error(`The inbound mail thread stopped: ${why}`));
    }
  }

  close(): void {
    const worker = this.worker;
    this.worker = null;
    if (!worker) return;
    worker.postMessage({ id: 0, close: true } satisfies InboundThreadRequest);
    setTimeout(() => void worker.terminate(), 1000).unref();
  }
}

export class InboundThreads {
  private readonly threads: InboundThread[];

  /** `threads`: how many (inboundThreadCount() unless said); 0 parses on the calling thread. */
  constructor(
    private readonly data: InboundThreadData,
    options: { threads?: number } = {},
  ) {
    const count = Math.max(0, options.threads ?? inboundThreadCount());
    this.threads = Array.from({ length: count }, () => new InboundThread(data));
  }

  /**
   * What the message says (email.inbound-parse.ts); rejects when its thread failed or gave no
   * answer within `timeoutMs` (PARSE_TIMEOUT_MS unless said).
   */
  parse(
    raw: Buffer,
    session: SmtpSessionFacts,
    options: { toInbox: boolean; timeoutMs?: number },
  ): Promise<ParsedInbound> {
    if (this.threads.length === 0)
      return parseInbound(raw, session, { toInbox: options.toInbox, dns: this.data.dns });
    let best = this.threads[0]!;
    for (const t of this.threads) if (t.inFlight < best.inFlight) best = t;
    return best.parse(raw, session, options.toInbox, options.timeoutMs ?? PARSE_TIMEOUT_MS);
  }

  close(): void {
    for (const t of this.threads) t.close();
  }
}
