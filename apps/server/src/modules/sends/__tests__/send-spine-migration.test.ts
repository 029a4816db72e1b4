// Migration 0022 on a database written before it: every WhatsApp log becomes a send (its tracking
// id kept) and every status an event of it, and the logs answer as they did.
import { describe, expect, it } from 'vitest';
import { migrateDatabase } from '../../../db/migrate';
import {
  createTestRuntime,
  createTestStore,
  migrationsBefore,
  openStoreDatabase,
} from '../../../testing/test-runtime';
import { findSendLogs } from '../sends.logs';
import * as repo from '../sends.repository';
import * as repoEvents from '../sends.events.repository';

describe('migration 0022 on a database with WhatsApp logs and statuses', () => {
  it('moves every row into sends and send_events and answers the same logs', async () => {
    const store = await createTestStore({ empty: true });
    const before = migrationsBefore('0022');
    try {
      const old = await openStoreDatabase(store);
      await migrateDatabase(old, before.folder);
      const [b] = await old.query<{ id: string }>(
        `insert into businesses (name, unique_code) values ('spine-mig', 'spine-mig') returning id`,
      );
      const businessId = Number(b!.id);
      const logs = await old.query<{ tracking_id: string }>(
        `insert into whatsapp_logs (business_id, wamid, recipient, type, template_name, status, error_code, error_message,
           pricing_category, billable, request, response, created_at)
         values ($1, 'wamid.M1', '15550000001', 'text', null, 'read', null, null, 'service', false,
                 '{"to":"15550000001","type":"text"}', '{"messages":[{"id":"wamid.M1"}]}', '2025-03-01T10:00:00.123Z'),
                ($1, null, '15550000002', 'template', 'hello', 'error', 132001, 'No such template', null, null,
                 '{"to":"15550000002","type":"template"}', '{"error":{"code":132001}}', '2025-03-01T11:00:00.456Z'),
                ($1, 'wamid.M3', '15550000003', 'template', 'promo', 'failed', 131026, 'Undeliverable', 'marketing', true,
                 '{"to":"15550000003","type":"template"}', null, '2025-03-01T12:00:00Z')
         returning tracking_id`,
        [businessId],
      );
      await old.query(
        `insert into whatsapp_status_events (business_id, message_id, status, timestamp, payload)
         values ($1, 'wamid.M1', 'sent', 1740823200, '{"pricing":{"category":"service","billable":false}}'),
                ($1, 'wamid.M1', 'read', 1740823260, '{}'),
                ($1, 'wamid.M3', 'failed', 1740830400, '{"errors":[{"code":131026}]}'),
                ($1, 'wamid.ORPHAN', 'delivered', null, '{}')`,
        [businessId],
      );
      await old.close();

      const rt = await createTestRuntime({ store, http: false });
      try {
        const [counts] = await rt.database.query<{ sends: number; events: number; linked: number }>(
          `select (select count(*)::int from sends) as sends, (select count(*)::int from send_events) as events,
                  (select count(*)::int from send_events where send_id is not null) as linked`,
        );
        expect(counts).toEqual({ sends: 3, events: 4, linked: 3 });
        const page = await findSendLogs(
          rt.database.db,
          'whatsapp',
          { businessId, groupIds: null },
          {
            page: 1,
            page_size: 10,
          },
        );
        expect(
          page.results.map((l) => [l.tracking_id, l.status, l.error_code, l.pricing_category, l.billable]),
        ).toEqual([
          [logs[2]!.tracking_id, 'failed', 131026, 'marketing', true],
          [logs[1]!.tracking_id, 'error', 132001, null, null],
          [logs[0]!.tracking_id, 'read', null, 'service', false],
        ]);
        expect(page.results[2]).toMatchObject({
          wamid: 'wamid.M1',
          to: '15550000001',
          type: 'text',
          created_at: '2025-03-01T10:00:00.123Z',
        });
        const send = await repo.findSend(rt.database.db, businessId, logs[0]!.tracking_id);
        expect(send?.providerRequest).toEqual({ to: '15550000001', type: 'text' });
        const events = await repoEvents.listEvents(rt.database.db, send!);
        expect(events.map((e) => [e.type, e.occurredAt?.toISOString()])).toEqual([
          ['sent', '2025-03-01T10:00:00.000Z'],
          ['read', '2025-03-01T10:01:00.000Z'],
        ]);
        const [tables] = await rt.database.query<{ n: number }>(
          `select count(*)::int as n from pg_tables where tablename in ('whatsapp_logs', 'whatsapp_status_events')`,
        );
        expect(tables!.n).toBe(0);
      } finally {
        await rt.close();
      }
    } finally {
      before.remove();
      await store.destroy();
    }
  });
});
