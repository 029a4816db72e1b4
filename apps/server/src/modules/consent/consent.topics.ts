// Topics (next-api.md "Campaigns and consent"): what a business mails about ("Offers", "News").
// Campaigns target a topic; a customer is in every topic of the business until they leave one in
// the preference centre (or by one-click on a mail of the topic). Leaving all is an unsubscribe.
import {
  CONSENT_ERRORS,
  CONSENT_PAGE_LOCALES,
  type TConsentPage,
  type TConsentPageLocale,
  type TConsentTopic,
  type TCreateConsentTopicRequest,
  type TUpdateConsentPageRequest,
  type TUpdateConsentTopicRequest,
} from '@titan/contracts';
import type { Db, Queryable } from '../../db/client';
import { AppError } from '../../platform/errors';
import { type CustomerRow, customerIdsAtAddress } from '../directory';
import { findBrand, saveBrandLook } from '../templates';
import * as repo from './consent.repository';

export type TopicRow = repo.TopicRow;

const toTopic = (row: repo.TopicRow): TConsentTopic => ({
  id: row.id,
  name: row.name,
  description: row.description,
  created_at: row.createdAt.toISOString(),
  updated_at: row.updatedAt.toISOString(),
});

const nameTaken = () => AppError.fields({ name: [CONSENT_ERRORS.topicNameTaken] });

export async function listTopics(db: Queryable, businessId: number): Promise<TConsentTopic[]> {
  return (await repo.listTopics(db, businessId)).map(toTopic);
}

/** The business's topic (404 for another business's, or none). */
export async function getTopic(db: Queryable, businessId: number, id: number): Promise<TConsentTopic> {
  const row = await repo.findTopic(db, businessId, id);
  if (!row) throw AppError.notFound(CONSENT_ERRORS.topicNotFound);
  return toTopic(row);
}

/** Whether the business has this topic (campaigns check the topic they target). */
export async function topicExists(db: Queryable, businessId: number, id: number): Promise<boolean> {
  return (await repo.findTopic(db, businessId, id)) !== null;
}

export async function createTopic(
  db: Queryable,
  businessId: number,
  input: TCreateConsentTopicRequest,
): Promise<TConsentTopic> {
  try {
    return toTopic(await repo.insertTopic(db, { businessId, ...input }));
  } catch (err) {
    if (repo.isTopicNameTaken(err)) throw nameTaken();
    throw err;
  }
}

export async function updateTopic(
  db: Queryable,
  businessId: number,
  id: number,
  input: TUpdateConsentTopicRequest,
): Promise<TConsentTopic> {
  try {
    const row = await repo.updateTopic(db, businessId, id, input);
    if (!row) throw AppError.notFound(CONSENT_ERRORS.topicNotFound);
    return toTopic(row);
  } catch (err) {
    if (repo.isTopicNameTaken(err)) throw nameTaken();
    throw err;
  }
}

export async function deleteTopic(db: Queryable, businessId: number, id: number): Promise<void> {
  if (!(await repo.deleteTopic(db, businessId, id))) throw AppError.notFound(CONSENT_ERRORS.topicNotFound);
}

/**
 * Of these customers, those who left the topic: a campaign of the topic passes over them (one
 * query for a batch of any size).
 */
export async function customersOutOfTopic(
  db: Queryable,
  topicId: number,
  customerIds: number[],
): Promise<Set<number>> {
  return new Set(await repo.customersOutOf(db, topicId, customerIds));
}

/** The topic ids a customer is in (every topic of the business they have not left). */
export async function customerTopicIds(
  db: Queryable,
  businessId: number,
  customerId: number,
): Promise<number[]> {
  const [topics, out] = await Promise.all([
    repo.listTopics(db, businessId),
    repo.optoutsOf(db, businessId, [customerId]),
  ]);
  const left = new Set(out.map((o) => o.topicId));
  return topics.filter((t) => !left.has(t.id)).map((t) => t.id);
}

/** The customers of the business reached at an email address (those its mail concerns). */
async function customersAt(db: Queryable, businessId: number, email: string): Promise<number[]> {
  return customerIdsAtAddress(db, businessId, 'email', email.trim().toLowerCase());
}

/** Every customer at the address leaves the topic (one-click on a mail of the topic). */
export async function leaveTopic(
  db: Queryable,
  input: { businessId: number; topicId: number; email: string },
): Promise<boolean> {
  if (!(await repo.findTopic(db, input.businessId, input.topicId))) return false;
  const ids = await customersAt(db, input.businessId, input.email);
  await repo.addOptouts(db, input.businessId, [input.topicId], ids);
  return true;
}

/** The topics of the business, each with whether the person at the address still gets it. */
export async function topicChoices(
  db: Queryable,
  businessId: number,
  email: string,
): Promise<{ id: number; name: string; description: string; subscribed: boolean }[]> {
  const ids = await customersAt(db, businessId, email);
  const [topics, out] = await Promise.all([
    repo.listTopics(db, businessId),
    repo.optoutsOf(db, businessId, ids),
  ]);
  const left = new Set(out.map((o) => o.topicId));
  return topics.map((t) => ({
    id: t.id,
    name: t.name,
    description: t.description,
    subscribed: ids.length === 0 || !left.has(t.id),
  }));
}

/** The person at the address keeps exactly these topics (400 naming another business's). */
export async function chooseTopics(
  db: Queryable,
  input: { businessId: number; email: string; keep: number[] },
): Promise<void> {
  const topics = await repo.listTopics(db, input.businessId);
  const own = new Set(topics.map((t) => t.id));
  const foreign = input.keep.filter((id) => !own.has(id));
  if (foreign.length > 0) throw AppError.fields({ topics: [CONSENT_ERRORS.unknownTopics] });
  const keep = new Set(input.keep);
  const ids = await customersAt(db, input.businessId, input.email);
  await repo.removeOptouts(db, input.businessId, [...keep], ids);
  await repo.addOptouts(
    db,
    input.businessId,
    topics.filter((t) => !keep.has(t.id)).map((t) => t.id),
    ids,
  );
}

// ---- The look and language of the public pages ----

/**
 * The public pages look like the business's mail: its email brand's logo and primary colour (one
 * setting, on the Brand screen; `/api/consent/page/` reads and writes the same two fields). Until a
 * brand is saved the pages keep their neutral look (no accent).
 */
export async function getConsentPage(db: Db, businessId: number): Promise<TConsentPage> {
  const brand = await findBrand(db, businessId);
  return { logo_url: brand.logo_url, accent_color: brand.updated_at ? brand.primary_color : null };
}

export async function updateConsentPage(
  db: Db,
  businessId: number,
  input: TUpdateConsentPageRequest,
): Promise<TConsentPage> {
  const brand = await saveBrandLook(db, businessId, {
    logo_url: input.logo_url,
    primary_color: input.accent_color,
  });
  return { logo_url: brand.logo_url, accent_color: brand.primary_color };
}

/**
 * The language a customer reads the public pages in: their `locale` or `language` field (or the
 * first customer's at the address) when the pages speak it, else English.
 */
export function pageLocaleOf(customer: Pick<CustomerRow, 'fields'> | null | undefined): TConsentPageLocale {
  const fields = customer?.fields ?? {};
  for (const key of ['locale', 'language', 'lang']) {
    const v = fields[key];
    if (typeof v !== 'string') continue;
    const lang = v.trim().toLowerCase().split(/[-_]/)[0];
    const found = CONSENT_PAGE_LOCALES.find((l) => l === lang);
    if (found) return found;
  }
  return 'en';
}
