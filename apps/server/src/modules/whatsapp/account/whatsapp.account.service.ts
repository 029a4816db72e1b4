// WhatsApp Cloud API, the connected number: a business's phone number id, WABA, verify token and
// sealed secrets, and the webhook address Meta is to call.
import type { TSaveWhatsappAccountRequest, TWhatsappAccount } from '@titan/contracts';
import { AppError } from '../../../platform/errors';
import type { WhatsappDeps } from '../messages/whatsapp.outbound';
import { forgetSigningAccounts } from '../webhook/whatsapp.webhook.service';
import * as accountRepo from './whatsapp.account.repository';

export type { WhatsappDeps };

export const WHATSAPP_ERRORS = {
  secretsRequired: 'Enter the access token and the app secret to connect the number.',
  numberTaken: 'This phone number id is already connected to another business.',
} as const;

function toAccount(row: accountRepo.WhatsappAccountRow, publicUrl: string): TWhatsappAccount {
  return {
    phone_number_id: row.phoneNumberId,
    waba_id: row.wabaId,
    display_phone_number: row.displayPhoneNumber,
    verify_token: row.verifyToken,
    webhook_url: `${publicUrl}/api/whatsapp/webhook/`,
    has_access_token: row.accessTokenSealed.length > 0,
    has_app_secret: row.appSecretSealed.length > 0,
  };
}

export async function findAccount(deps: WhatsappDeps, businessId: number): Promise<TWhatsappAccount> {
  const row = await accountRepo.findAccountByBusiness(deps.db, businessId);
  if (!row) throw AppError.notFound('No WhatsApp number is connected yet.');
  return toAccount(row, deps.config.PUBLIC_URL);
}

export async function saveAccount(
  deps: WhatsappDeps,
  businessId: number,
  input: TSaveWhatsappAccountRequest,
): Promise<TWhatsappAccount> {
  const current = await accountRepo.findAccountByBusiness(deps.db, businessId);
  if (!current && (!input.access_token || !input.app_secret)) {
    throw AppError.fields({
      ...(input.access_token ? {} : { access_token: [WHATSAPP_ERRORS.secretsRequired] }),
      ...(input.app_secret ? {} : { app_secret: [WHATSAPP_ERRORS.secretsRequired] }),
    });
  }
  const owner = await accountRepo.findAccountByPhoneNumberId(deps.db, input.phone_number_id);
  if (owner && owner.businessId !== businessId)
    throw AppError.fields({ phone_number_id: [WHATSAPP_ERRORS.numberTaken] });
  const row = await accountRepo.upsertAccount(deps.db, {
    businessId,
    phoneNumberId: input.phone_number_id,
    wabaId: input.waba_id,
    displayPhoneNumber: input.display_phone_number,
    verifyToken: input.verify_token,
    accessTokenSealed: input.access_token
      ? deps.secrets.seal(input.access_token)
      : current!.accessTokenSealed,
    appSecretSealed: input.app_secret ? deps.secrets.seal(input.app_secret) : current!.appSecretSealed,
  });
  // The next delivery is checked with what was just saved (the number or its secret may have changed).
  forgetSigningAccounts(deps.db);
  return toAccount(row, deps.config.PUBLIC_URL);
}
