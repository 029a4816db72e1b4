// Businesses: create (the caller becomes owner), read and update the current one.
import {
  FREQUENCY_CAP_DEFAULT,
  type TBusiness,
  type TCreateBusinessRequest,
  type TFrequencyCap,
  type TFrequencyCapRequest,
  type TUpdateBusinessRequest,
} from '@titan/contracts';
import type { Db, Queryable } from '../../db/client';
import { randomCode } from '../../platform/crypto';
import { AppError } from '../../platform/errors';
import { recordEvent } from '../analytics';
import { periodCounts } from '../billing';
import * as repo from './business.repository';

/**
 * The business as the API answers it. `sms_count`, `email_count` and `whatsapp_count` are the
 * sends providers accepted in the current billing period (engage.md §1, §8), kept by billing.
 */
export async function toBusiness(db: Queryable, row: repo.BusinessRow): Promise<TBusiness> {
  return { ...businessFields(row), ...(await periodCounts(db, row.id)) };
}

function businessFields(
  row: repo.BusinessRow,
): Omit<TBusiness, 'sms_count' | 'email_count' | 'whatsapp_count'> {
  return {
    id: row.id,
    name: row.name,
    phone_number: row.phoneNumber,
    dial_code: row.dialCode,
    created_on: row.createdOn.toISOString(),
    created_by: row.createdBy,
    updated_on: row.updatedOn.toISOString(),
    updated_by: row.updatedBy,
    unique_code: row.uniqueCode,
    subscription_status: row.subscriptionStatus as TBusiness['subscription_status'],
    time_zone: row.timeZone,
    require_2fa: row.require2fa,
  };
}

export async function createBusiness(
  db: Db,
  userId: number,
  input: TCreateBusinessRequest,
  requestId: string,
): Promise<TBusiness> {
  const business = await db.transaction(async (tx) => {
    const row = await repo.insertBusiness(tx, {
      name: input.name,
      phoneNumber: input.phone_number ?? null,
      dialCode: input.dial_code ?? null,
      timeZone: input.time_zone ?? 'UTC',
      uniqueCode: randomCode(20),
      createdBy: userId,
      updatedBy: userId,
    });
    await repo.insertMembership(tx, { businessId: row.id, userId, role: 'owner' });
    return row;
  });
  await recordEvent(db, { event: 'user_created_business', userId, businessId: business.id, requestId });
  return toBusiness(db, business);
}

export async function findBusiness(db: Db, businessId: number): Promise<TBusiness> {
  const row = await repo.findBusinessById(db, businessId);
  if (!row) throw AppError.notFound();
  return toBusiness(db, row);
}

export async function updateBusiness(
  db: Db,
  businessId: number,
  userId: number | null,
  input: TUpdateBusinessRequest,
): Promise<TBusiness> {
  const row = await repo.updateBusiness(db, businessId, {
    ...(input.name !== undefined ? { name: input.name } : {}),
    ...(input.phone_number !== undefined ? { phoneNumber: input.phone_number } : {}),
    ...(input.dial_code !== undefined ? { dialCode: input.dial_code } : {}),
    ...(input.time_zone !== undefined ? { timeZone: input.time_zone } : {}),
    ...(input.require_2fa !== undefined ? { require2fa: input.require_2fa } : {}),
    updatedBy: userId,
  });
  if (!row) throw AppError.notFound();
  return toBusiness(db, row);
}

/** The business a public page names by its code, or null (public forms, pages without a session). */
export async function findBusinessByCode(db: Db, code: string): Promise<TBusiness | null> {
  const row = await repo.findBusinessByCode(db, code);
  return row ? toBusiness(db, row) : null;
}

/** Keeps `subscription_status` as Chargebee reports it (billing's webhooks). */
export async function setSubscriptionStatus(
  db: Queryable,
  businessId: number,
  status: string,
): Promise<void> {
  await repo.setSubscriptionStatus(db, businessId, status);
}

/** A business's IANA time zone (UTC when the business is gone). */
export async function businessTimeZone(db: Queryable, businessId: number): Promise<string> {
  return (await repo.findBusinessById(db, businessId))?.timeZone ?? 'UTC';
}

/**
 * The business's marketing frequency cap (issue 32), read by every marketing sender — campaigns,
 * journeys and agents — through the sends module's `frequencyCapped`. The default when the business is gone.
 */
export async function frequencyCapOf(db: Queryable, businessId: number): Promise<TFrequencyCap> {
  const row = await repo.findBusinessById(db, businessId);
  return row ? { ...FREQUENCY_CAP_DEFAULT, ...row.frequencyCap } : FREQUENCY_CAP_DEFAULT;
}

export async function setFrequencyCap(
  db: Queryable,
  businessId: number,
  userId: number | null,
  input: TFrequencyCapRequest,
): Promise<TFrequencyCap> {
  const cap: TFrequencyCap = {
    enabled: input.enabled,
    max_messages: input.max_messages,
    period_days: input.period_days,
  };
  const row = await repo.updateBusiness(db, businessId, { frequencyCap: cap, updatedBy: userId });
  if (!row) throw AppError.notFound();
  return row.frequencyCap;
}
