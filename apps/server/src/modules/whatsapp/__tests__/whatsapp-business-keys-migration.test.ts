// Migration 0019 on a database written before it: every WhatsApp row is kept, and afterwards a
// wamid or media id is a key within its business (the same id in another business is another row).
import { describe, expect, it } from 'vitest';
import type { Database } from '../../../db/client';
import { migrateDatabase } from '../../../db/migrate';
import { createTestStore, migrationsBefore, openStoreDatabase } from '../../../testing/test-runtime';

const TABLES = ['wa_messages', 'whatsapp_status_events', 'whatsapp_logs', 'whatsapp_media'] as const;

async function snapshot(db: Pick<Database, 'query'>) {
  const rows: Record<string, unknown[]> = {};
  for (const table of TABLES) {
    rows[table] = await db.query(
      `select to_jsonb(t) - 'position' - 'id' - 'tracking_id' || jsonb_build_object('key', ${
        table === 'whatsapp_logs'
          ? 't.wamid'
          : table === 'whatsapp_status_events'
            ? "t.message_id || '/' || t.status"
            : 't.id'
      }) as row from ${table} t order by 1`,
    );
  }
  return rows;
}

describe('migration 0019 on a database that already has WhatsApp rows', () => {
  it('keeps every row and keys wamids and media ids by business', async () => {
    const store = await createTestStore({ empty: true });
    const before = migrationsBefore('0019');
    try {
      // The migrations up to 0018, as a database written before this one would have them.
      const old = await openStoreDatabase(store);
      await migrateDatabase(old, before.folder);
      const businessIds: number[] = [];
      for (const code of ['keys-a', 'keys-b']) {
        const [row] = await old.query<{ id: string | number }>(
          `insert into businesses (name, unique_code) values ($1, $1) returning id`,
          [code],
        );
        businessIds.push(Number(row!.id));
      }
      const [a, b] = businessIds as [number, number];
      for (const [i, businessId] of businessIds.entries()) {
        const [conversation] = await old.query<{ id: string | number }>(
          `insert into conversations (business_id, channel, status) values ($1, 'whatsapp', 'active') returning id`,
          [businessId],
        );
        await old.query(
          `insert into wa_messages (id, business_id, conversation_id, content, sender_type, status)
           values ($1, $2, $3, 'sent', 'staff', 'delivered'), ($4, $2, $3, 'received', 'customer', null)`,
          [`wamid.OUT${i}`, businessId, Number(conversation!.id), `wamid.IN${i}`],
        );
        await old.query(
          `insert into whatsapp_status_events (business_id, message_id, status, timestamp, payload)
           values ($1, $2, 'sent', 1, '{}'), ($1, $2, 'delivered', 2, '{}')`,
          [businessId, `wamid.OUT${i}`],
        );
        await old.query(
          `insert into whatsapp_logs (business_id, wamid, recipient, type, status, request)
           values ($1, $2, '4915700000001', 'text', 'delivered', '{}')`,
          [businessId, `wamid.OUT${i}`],
        );
        await old.query(
          `insert into whatsapp_media (id, business_id, direction, mime_type) values ($1, $2, 'inbound', 'image/png')`,
          [`media-${i}`, businessId],
        );
      }
      const kept = await snapshot(old);
      expect(Object.values(kept).map((rows) => rows.length)).toEqual([4, 4, 2, 2]);
      await old.close();

      // Up to 0021: 0022 moves the logs and statuses into the send spine (send-spine-migration.test.ts).
      before.stopBefore('0022');
      const after = await openStoreDatabase(store);
      await migrateDatabase(after, before.folder);
      const rt = { database: after, close: () => after.close() };
      try {
        expect(await snapshot(rt.database)).toEqual(kept);
        // Now B may hold the wamids, statuses, logs and media ids A holds, as rows of its own.
        const [conversation] = await rt.database.query<{ id: string | number }>(
          `insert into conversations (business_id, channel, status) values ($1, 'whatsapp', 'active') returning id`,
          [b],
        );
        await rt.database.query(
          `insert into wa_messages (id, business_id, conversation_id, content, sender_type)
           values ('wamid.OUT0', $1, $2, 'same id, other business', 'customer')`,
          [b, Number(conversation!.id)],
        );
        await rt.database.query(
          `insert into whatsapp_status_events (business_id, message_id, status, payload)
           values ($1, 'wamid.OUT0', 'sent', '{}')`,
          [b],
        );
        await rt.database.query(
          `insert into whatsapp_logs (business_id, wamid, recipient, type, status, request)
           values ($1, 'wamid.OUT0', '4915700000001', 'text', 'accepted', '{}')`,
          [b],
        );
        await rt.database.query(
          `insert into whatsapp_media (id, business_id, direction, mime_type) values ('media-0', $1, 'inbound', 'image/png')`,
          [b],
        );
        // …and within a business the keys still hold.
        await expect(
          rt.database.query(
            `insert into wa_messages (id, business_id, conversation_id, content, sender_type)
             select 'wamid.IN0', $1, conversation_id, 'again', 'customer' from wa_messages where id = 'wamid.IN0' and business_id = $1`,
            [a],
          ),
        ).rejects.toThrow();
        await expect(
          rt.database.query(
            `insert into whatsapp_status_events (business_id, message_id, status, payload) values ($1, 'wamid.OUT0', 'sent', '{}')`,
            [a],
          ),
        ).rejects.toThrow();
        await expect(
          rt.database.query(
            `insert into whatsapp_media (id, business_id, direction, mime_type) values ('media-0', $1, 'inbound', 'image/png')`,
            [a],
          ),
        ).rejects.toThrow();
      } finally {
        await rt.close();
      }
    } finally {
      before.remove();
      await store.destroy();
    }
  });
});
