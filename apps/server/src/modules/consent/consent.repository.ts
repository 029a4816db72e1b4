// The only code that writes `consent_records`: why a customer's consent is what it is when
// something other than the person set it.
import { sql } from 'drizzle-orm';
import type { Queryable } from '../auth/auth.repository';

/**
 * One record per customer for the same consent on one channel, from one source and proof: an
 * import's batch in one statement (the ids as an array parameter, however many).
 */
export async function insertConsentRecords(
  db: Queryable,
  record: {
    businessId: number;
    customerIds: number[];
    channel: 'email' | 'sms' | 'whatsapp';
    status: string;
    source: 'import';
    proof: string;
    importId: string | null;
  },
): Promise<void> {
  if (record.customerIds.length === 0) return;
  await db.execute(sql`insert into consent_records
      (business_id, customer_id, channel, status, source, proof, import_id)
    select ${record.businessId}, c.id, ${record.channel}, ${record.status}, ${record.source},
      ${record.proof}, ${record.importId}::uuid
    from unnest(${sql.param(record.customerIds)}::bigint[]) as c(id)`);
}
