// Migration 0021 on a database written before it: widget identities move to their own
// namespace, a widget identity merged into a WhatsApp contact is split off, nothing is lost.
import { describe, expect, it } from 'vitest';
import type { Database } from '../../../db/client';
import { migrateDatabase } from '../../../db/migrate';
import {
  createTestRuntime,
  createTestStore,
  migrationsBefore,
  openStoreDatabase,
} from '../../../testing/test-runtime';

async function id(db: Database, sql: string, params: unknown[]): Promise<number> {
  const [row] = await db.query<{ id: string | number }>(sql, params);
  return Number(row!.id);
}

describe('migration 0021 on a database with widget identities and WhatsApp contacts', () => {
  it('namespaces widget identities and splits merged ones off WhatsApp contacts', async () => {
    const store = await createTestStore({ empty: true });
    const before = migrationsBefore('0021');
    try {
      const old = await openStoreDatabase(store);
      await migrateDatabase(old, before.folder);
      const b = await id(
        old,
        `insert into businesses (name, unique_code) values ('Old', 'old-0021') returning id`,
        [],
      );
      const customer = (externalId: string | null, name: string) =>
        id(old, `insert into customers (business_id, external_id, name) values ($1, $2, $3) returning id`, [
          b,
          externalId,
          name,
        ]);
      const conversation = (channel: string, initiator: number) =>
        id(
          old,
          `insert into conversations (business_id, channel, initiator_id) values ($1, $2, $3) returning id`,
          [b, channel, initiator],
        );
      const site = await customer('site-user-1', 'Site user');
      const prefixed = await customer('widget:x', 'Prefixed');
      const plain = await customer('x', 'Plain');
      const anonymous = await customer(null, 'Anonymous');
      const wanda = await customer('wa:15550003333', 'Wanda');
      const walter = await customer('wa:15550004444', 'Walter');
      const siteChat = await conversation('titan_message', site);
      const waChat = await conversation('whatsapp', wanda);
      const mergedChat = await conversation('titan_message', wanda);
      const walterChat = await conversation('whatsapp', walter);
      await old.query(
        `insert into messages (business_id, conversation_id, content, sender_type, sender_id)
         values ($1, $2, 'from the widget', 'customer', $3), ($1, $2, 'staff answer', 'staff', null)`,
        [b, mergedChat, wanda],
      );
      await old.query(
        `insert into wa_messages (id, business_id, conversation_id, content, sender_type, sender_id, timestamp)
         values ('wamid.0021', $1, $2, 'on WhatsApp', 'customer', $3, 0)`,
        [b, waChat, wanda],
      );
      await old.close();

      const rt = await createTestRuntime({ store, http: false });
      try {
        const db = rt.database;
        const rows = await db.query<{ id: string | number; external_id: string | null; name: string }>(
          `select id, external_id, name from customers where business_id = $1 order by id`,
          [b],
        );
        const byId = new Map(rows.map((r) => [Number(r.id), r.external_id]));
        expect(byId.get(site)).toBe('widget:site-user-1');
        expect(byId.get(prefixed)).toBe('widget:widget:x');
        expect(byId.get(plain)).toBe('widget:x');
        expect(byId.get(anonymous)).toBeNull();
        expect(byId.get(wanda)).toBe('wa:15550003333');
        expect(byId.get(walter)).toBe('wa:15550004444');
        // One new customer: the widget identity that had merged into Wanda's contact.
        expect(rows).toHaveLength(7);
        const split = rows.find((r) => r.external_id === 'widget:wa:15550003333')!;
        expect(split.name).toBe('Wanda');
        const initiators = await db.query<{ id: string | number; initiator_id: string | number }>(
          `select id, initiator_id from conversations where business_id = $1`,
          [b],
        );
        const initiatorOf = new Map(initiators.map((c) => [Number(c.id), Number(c.initiator_id)]));
        expect(initiatorOf.get(siteChat)).toBe(site);
        expect(initiatorOf.get(waChat)).toBe(wanda);
        expect(initiatorOf.get(walterChat)).toBe(walter);
        expect(initiatorOf.get(mergedChat)).toBe(Number(split.id));
        const messages = await db.query<{ content: string; sender_id: string | number | null }>(
          `select content, sender_id from messages where conversation_id = $1 order by id`,
          [mergedChat],
        );
        expect(messages.map((m) => [m.content, m.sender_id === null ? null : Number(m.sender_id)])).toEqual([
          ['from the widget', Number(split.id)],
          ['staff answer', null],
        ]);
        const [wa] = await db.query<{ sender_id: string | number }>(
          `select sender_id from wa_messages where id = 'wamid.0021'`,
        );
        expect(Number(wa!.sender_id)).toBe(wanda);
      } finally {
        await rt.close();
      }
    } finally {
      before.remove();
      await store.destroy();
    }
  });
});
