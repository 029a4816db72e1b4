// Business-wide widget settings: allowed origins and the identity-verification secret.
import type { TWidgetSettings } from '@titan/contracts';
import type { Db } from '../../db/client';
import { randomToken, type SecretBox } from '../../platform/crypto';
import { AppError } from '../../platform/errors';
import { type BusinessRow, findBusinessById, updateBusiness } from '../business';

function toSettings(row: BusinessRow, secrets: SecretBox): TWidgetSettings {
  return {
    allowed_origins: row.widgetAllowedOrigins,
    identity_verification: row.widgetIdentitySecret !== null,
    identity_secret: row.widgetIdentitySecret ? secrets.open(row.widgetIdentitySecret) : null,
  };
}

export async function findWidgetSettings(
  db: Db,
  secrets: SecretBox,
  businessId: number,
): Promise<TWidgetSettings> {
  const row = await findBusinessById(db, businessId);
  if (!row) throw AppError.notFound();
  return toSettings(row, secrets);
}

export async function updateWidgetSettings(
  db: Db,
  secrets: SecretBox,
  businessId: number,
  input: { allowed_origins?: string[]; identity_verification?: boolean },
): Promise<TWidgetSettings> {
  const current = await findBusinessById(db, businessId);
  if (!current) throw AppError.notFound();
  const turnOn = input.identity_verification === true && current.widgetIdentitySecret === null;
  const row = await updateBusiness(db, businessId, {
    ...(input.allowed_origins !== undefined
      ? { widgetAllowedOrigins: [...new Set(input.allowed_origins)] }
      : {}),
    ...(turnOn ? { widgetIdentitySecret: secrets.seal(randomToken(32)) } : {}),
    ...(input.identity_verification === false ? { widgetIdentitySecret: null } : {}),
  });
  return toSettings(row!, secrets);
}

/** A new secret: embedding sites must sign with it from now on. */
export async function rotateIdentitySecret(
  db: Db,
  secrets: SecretBox,
  businessId: number,
): Promise<TWidgetSettings> {
  const row = await updateBusiness(db, businessId, { widgetIdentitySecret: secrets.seal(randomToken(32)) });
  if (!row) throw AppError.notFound();
  return toSettings(row, secrets);
}
