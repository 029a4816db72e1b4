// A business whose agent-role member sees part of it, for the tests of who may read which
// customer: chat groups "support" (the agent's) and "sales", and visitors with conversations in
// them, made through the real API.
import type { FastifyInstance } from 'fastify';
import type { TBusiness } from '@titan/contracts';
import type { Mailer } from '../platform/mailer';
import { addMember, as, createBusiness, signUp, type Session } from './identity';

export type ScopedBusiness = {
  boss: Session;
  shop: TBusiness;
  /** An agent-role member of the "support" group. */
  agent: Session;
  /**
   * A visitor with one conversation per slug (null: assigned to no group; none: no conversation),
   * subscribed by email and SMS, with the address (and custom fields) given.
   */
  visitor: (
    name: string,
    slugs: (string | null)[],
    details?: { email?: string; phone?: string; fields?: Record<string, string> },
  ) => Promise<number>;
};

export async function scopedBusiness(
  app: FastifyInstance,
  mailer: Mailer,
  name = 'Scoped Co',
): Promise<ScopedBusiness> {
  const boss = await signUp(app, mailer);
  const shop = await createBusiness(app, boss, name);
  const groups: Record<string, number> = {};
  for (const slug of ['support', 'sales']) {
    const res = await app.inject({
      method: 'POST',
      url: '/api/msg/chat-groups/',
      headers: as(boss, shop),
      payload: { name: slug, slug },
    });
    if (res.statusCode !== 201) throw new Error(`chat group failed: ${res.body}`);
    groups[slug] = res.json().result.id;
  }
  const agent = await addMember(app, mailer, boss, shop, 'agent');
  const added = await app.inject({
    method: 'POST',
    url: `/api/msg/chat-groups/${groups.support}/users/`,
    headers: as(boss, shop),
    payload: { user_id: agent.user.pk },
  });
  if (added.statusCode !== 201) throw new Error(`group member failed: ${added.body}`);

  const visitor: ScopedBusiness['visitor'] = async (visitorName, slugs, details = {}) => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/public/customers/',
      payload: { business_code: shop.unique_code, name: visitorName },
    });
    if (res.statusCode !== 201) throw new Error(`visitor failed: ${res.body}`);
    const { customer, token } = res.json().result;
    for (const slug of slugs) {
      const started = await app.inject({
        method: 'POST',
        url: '/api/public/conversations/',
        headers: { authorization: `Visitor ${token}` },
        payload: slug ? { group_slug: slug } : {},
      });
      if (started.statusCode !== 201) throw new Error(`conversation failed: ${started.body}`);
    }
    const updated = await app.inject({
      method: 'PUT',
      url: `/api/business/customer-directory/${customer.id}/`,
      headers: as(boss, shop),
      payload: { ...details, email_status: 'subscribed', sms_status: 'subscribed' },
    });
    if (updated.statusCode !== 200) throw new Error(`visitor update failed: ${updated.body}`);
    return customer.id as number;
  };
  return { boss, shop, agent, visitor };
}
