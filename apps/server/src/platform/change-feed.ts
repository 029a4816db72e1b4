// One LISTEN per instance on "titan_changes" (see the change-feed migration), fanned out in-process.
import type { Logger } from 'pino';
import type { Database } from '../db/client';

export const CHANGE_CHANNEL = 'titan_changes';

export type Change = {
  table: string;
  op: 'INSERT' | 'UPDATE' | 'DELETE';
  id: string | null;
  business_id: string | null;
  conversation_id: string | null;
  /** Present for realtime tables (change_log): the event's sequence number. */
  seq?: number;
  /** For conversation updates: last_message_at before the change. */
  old_last_message_at?: string | null;
};
export type ChangeHandler = (change: Change) => void;

export class ChangeFeed {
  private readonly handlers = new Set<ChangeHandler>();
  private unlisten: (() => Promise<void>) | null = null;

  constructor(
    private readonly database: Database,
    private readonly logger: Logger,
  ) {}

  async start(): Promise<void> {
    this.unlisten = await this.database.listen(CHANGE_CHANNEL, (payload) => this.dispatch(payload));
  }

  subscribe(handler: ChangeHandler): () => void {
    this.handlers.add(handler);
    return () => this.handlers.delete(handler);
  }

  private dispatch(payload: string): void {
    let change: Change;
    try {
      change = JSON.parse(payload) as Change;
    } catch (err) {
      this.logger.error({ err }, 'unreadable change notification');
      return;
    }
    for (const handler of this.handlers) {
      try {
        handler(change);
      } catch (err) {
        this.logger.error({ err, table: change.table }, 'change handler failed');
      }
    }
  }

  async stop(): Promise<void> {
    this.handlers.clear();
    const unlisten = this.unlisten;
    this.unlisten = null;
    await unlisten?.();
  }
}
