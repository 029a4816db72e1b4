// The WhatsApp channel's durable jobs, defined in one place for the runtime (and `npm run worker`).
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { createSecretBox } from '../../platform/crypto';
import type { Jobs } from '../../platform/jobs';
import { createStorage } from '../../platform/storage';
import { GraphClient } from './whatsapp.graph';
import type { WhatsappDeps } from './whatsapp.outbound';
import { processWebhookEvent, WEBHOOK_QUEUE } from './whatsapp.service';

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

export async function defineWhatsappQueues(jobs: Jobs, deps: WhatsappDeps): Promise<void> {
  await jobs.define<{ event_id: number }>({
    name: WEBHOOK_QUEUE,
    handler: (data) => processWebhookEvent(deps, data.event_id),
    retryLimit: 10,
    retryDelay: 2,
    concurrency: 4,
    pollingIntervalSeconds: 0.5,
  });
}
