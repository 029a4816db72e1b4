// A pool of SMTP threads (smtp-thread.ts): the main thread renders and records mail, the threads
// build, DKIM-sign and send it, each over its own share of the pooled connections. A message goes
// to the thread with the fewest in flight; a thread that dies fails what it held as a lost
// connection (transient: the send is tried again) and is started afresh on the next message.
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { EmailPayload } from './email-smtp.message';
import type { SmtpThreadData, SmtpThreadReply, SmtpThreadRequest } from './smtp-thread';

type Pending = { resolve: (response: string) => void; reject: (err: Error) => void };

/**
 * A thread's young generation: a message lives for its SMTP round trips only, so a small nursery
 * is scavenged often and cheaply. V8's default grows it to ~32 MiB committed in each thread (2×
 * that of resident memory for two threads, none of it live).
 */
const THREAD_LIMITS = { maxYoungGenerationSizeMb: 8 };

/**
 * How a thread is started: the built server runs `smtp-thread.js` beside its chunks (a tsup entry);
 * from the TypeScript sources (tests, `tsx`), the thread registers tsx's loader first.
 */
function startThread(data: SmtpThreadData): Worker {
  const here = import.meta.url;
  if (!/\.ts$/.test(new URL(here).pathname)) {
    return new Worker(new URL('./smtp-thread.js', here), {
      workerData: data,
      resourceLimits: THREAD_LIMITS,
    });
  }
  const tsx = createRequire(here)
    .resolve('tsx/esm/api')
    .replace(/\.cjs$/, '.mjs');
  const entry = new URL('./smtp-thread.ts', here).href;
  const code =
    `import(${JSON.stringify(pathToFileURL(tsx).href)})` +
    `.then((api) => { api.register(); return import(${JSON.stringify(entry)}); })`;
  return new Worker(code, { eval: true, workerData: data, resourceLimits: THREAD_LIMITS });
}

class SmtpThread {
  private worker: Worker | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;

  constructor(private readonly data: SmtpThreadData) {}

  get inFlight(): number {
    return this.pending.size;
  }

  send(payload: EmailPayload): Promise<string> {
    const worker = (this.worker ??= this.start());
    const id = this.nextId++;
    return new Promise<string>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ id, payload } satisfies SmtpThreadRequest);
    });
  }

  private start(): Worker {
    const worker = startThread(this.data);
    // The process's own lifetime decides: a thread never keeps it running.
    worker.unref();
    worker.on('message', (reply: SmtpThreadReply) => {
      const waiting = this.pending.get(reply.id);
      if (!waiting) return;
      this.pending.delete(reply.id);
      if ('response' in reply) waiting.resolve(reply.response);
      else waiting.reject(Object.assign(new Error(reply.error.message), reply.error));
    });
    const lost = (why: string) => {
      if (this.worker === worker) this.worker = null;
      const held = [...this.pending.values()];
      this.pending.clear();
      for (const p of held)
        p.reject(Object.assign(new Error(`The mail thread stopped: ${why}`), { code: 'ECONNECTION' }));
    };
    worker.on('error', (err) => lost(err.message));
    worker.on('exit', (code) => lost(`exit code ${code}`));
    return worker;
  }

  close(): void {
    const worker = this.worker;
    this.worker = null;
    if (!worker) return;
    // The thread closes its connections (QUIT) and ends; a stuck one is ended after a second.
    worker.postMessage({ id: 0, close: true } satisfies SmtpThreadRequest);
    setTimeout(() => void worker.terminate(), 1000).unref();
  }
}

export class SmtpThreads {
  private readonly threads: SmtpThread[];

  constructor(url: string, options: { threads: number; maxConnections: number }) {
    const count = Math.max(1, options.threads);
    const perThread = Math.max(1, Math.ceil(options.maxConnections / count));
    this.threads = Array.from({ length: count }, () => new SmtpThread({ url, maxConnections: perThread }));
  }

  /** The server's reply line; rejects with the server's error fields (code, responseCode, response). */
  send(payload: EmailPayload): Promise<string> {
    let best = this.threads[0]!;
    for (const t of this.threads) if (t.inFlight < best.inFlight) best = t;
    return best.send(payload);
  }

  close(): void {
    for (const t of this.threads) t.close();
  }
}
