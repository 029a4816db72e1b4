// The WhatsApp channel's durable jobs, defined in one place for the runtime (and `npm run worker`).
import type { Logger } from 'pino';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { createSecretBox } from '../../platform/crypto';
import type { Jobs } from '../../platform/jobs';
import { createStorage } from '../../platform/storage';
import { GraphClient } from '../../channels/whatsapp-cloud/whatsapp-cloud.graph';
import { WEBHOOK_QUEUE, WebhookProcessor } from './webhook/whatsapp.inbound';
import type { WhatsappDeps } from './messages/whatsapp.outbound';
import { RETENTION_CRON, RETENTION_QUEUE, runRetention } from './webhook/whatsapp.retention';
import { recoverSends } from '../sends';
import { EMAIL_SEND_QUEUE } from '../email';
import { SMS_SEND_QUEUE } from '../sms';
import { deliverTitanSend } from '../conversations';
import { runQueuedSend, SEND_QUEUE } from './messages/whatsapp.outbound';
import { MEDIA_QUEUE, runMediaFetch, type MediaFetchJob } from './media/whatsapp.media';
import { MARK_READ_QUEUE, markConversationRead } from './messages/whatsapp.send';

export function createWhatsappDeps(config: Config, db: Db, jobs: Jobs): WhatsappDeps {
  return {
    db,
    jobs,
    config,
    secrets: createSecretBox(config.APP_SECRET),
    storage: createStorage(config),
    graph: new GraphClient({
      baseUrl: config.WHATSAPP_GRAPH_URL,
      retryDelaysMs: config.WHATSAPP_RETRY_DELAYS_MS,
    }),
  };
}

export async function defineWhatsappQueues(jobs: Jobs, deps: WhatsappDeps, logger: Logger): Promise<void> {
  // Deliveries are their own queue (whatsapp_webhook_events), processed in batches: woken by
  // acceptWebhook in this process, polled for those stored by instances without workers.
  const processor = new WebhookProcessor(deps, logger);
  jobs.defineLoop({ name: WEBHOOK_QUEUE, run: () => processor.run(), concurrency: 2, pollIntervalMs: 250 });
  // A customer's photo or document: Meta keeps it for weeks, so retries can be patient.
  await jobs.define<MediaFetchJob>({
    name: MEDIA_QUEUE,
    handler: (data) => runMediaFetch(deps, data),
    retryLimit: 8,
    retryDelay: 5,
    retryBackoff: true,
    concurrency: 2,
    pollingIntervalSeconds: 0.5,
  });
  // Read receipts are a courtesy: a few tries, then let it go.
  await jobs.define<{ business_id: number; conversation_id: number }>({
    name: MARK_READ_QUEUE,
    handler: (data) => markConversationRead(deps, data.business_id, data.conversation_id),
    retryLimit: 3,
    retryDelay: 5,
    retryBackoff: true,
    pollingIntervalSeconds: 0.5,
  });
  // Old processed deliveries: a pg-boss schedule, so one instance of the set runs it each hour.
  await jobs.define({
    name: RETENTION_QUEUE,
    handler: async () => {
      await runRetention(deps.db, deps.config.WHATSAPP_EVENTS_RETENTION_DAYS, logger);
    },
    retryLimit: 2,
  });
  await jobs.schedule(RETENTION_QUEUE, RETENTION_CRON);
  // A queued send whose request died before it claimed it: sent from here, once per send id.
  await jobs.define<{ send_id: string }>({
    name: SEND_QUEUE,
    handler: (data) => runQueuedSend(deps, data.send_id),
    retryLimit: 3,
    retryDelay: 10,
    retryBackoff: true,
    pollingIntervalSeconds: 0.5,
  });
  // Sends a stopped process left unfinished: at start, then every minute (one instance runs it).
  await jobs.define({
    name: RECOVER_QUEUE,
    handler: async () => {
      const result = await recoverSends(deps.db, async (send) => {
        if (send.channel === 'whatsapp')
          await jobs.send(SEND_QUEUE, { send_id: send.id }, { singletonKey: send.id });
        // Its message is stored already: delivering it is recording it (no provider to call).
        else if (send.channel === 'titan_message') await deliverTitanSend(deps.db, send.id);
        // Never claimed, so no mail server saw it: the email job sends it.
        else if (send.channel === 'email')
          await jobs.send(EMAIL_SEND_QUEUE, { send_ids: [send.id] }, { singletonKey: send.id });
        // Never claimed, so Twilio never saw it: the SMS job sends it.
        else if (send.channel === 'sms')
          await jobs.send(SMS_SEND_QUEUE, { send_ids: [send.id] }, { singletonKey: send.id });
      });
      if (result.failed + result.queued > 0) logger.warn(result, 'unfinished sends recovered');
    },
    retryLimit: 2,
  });
  await jobs.schedule(RECOVER_QUEUE, '* * * * *');
  await jobs.send(RECOVER_QUEUE, {}, { singletonKey: 'start' });
}

export const RECOVER_QUEUE = 'sends.recover';
