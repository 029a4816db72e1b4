// The WhatsApp Business channel (api.md "WhatsApp").
import { z } from 'zod';

export const ZWhatsappAccount = z.object({
  phone_number_id: z.string(),
  waba_id: z.string(),
  display_phone_number: z.string(),
  verify_token: z.string(),
  /** Where to point the app's webhook at Meta. */
  webhook_url: z.string(),
  has_access_token: z.boolean(),
  has_app_secret: z.boolean(),
});
export type TWhatsappAccount = z.infer<typeof ZWhatsappAccount>;

const digits = z
  .string()
  .trim()
  .regex(/^[0-9]{5,30}$/, { message: 'Enter the numeric id shown in Meta’s WhatsApp Manager.' });

/** access_token and app_secret are write-only: required when connecting, optional afterwards. */
export const ZSaveWhatsappAccountRequest = z.object({
  phone_number_id: digits,
  waba_id: digits,
  display_phone_number: z.string().trim().min(4).max(30),
  verify_token: z.string().trim().min(8).max(200),
  access_token: z.string().trim().min(20).max(1000).optional(),
  app_secret: z.string().trim().min(16).max(200).optional(),
});
export type TSaveWhatsappAccountRequest = z.infer<typeof ZSaveWhatsappAccountRequest>;

export const ZWebhookVerifyQuery = z.object({
  'hub.mode': z.string().optional(),
  'hub.verify_token': z.string().optional(),
  'hub.challenge': z.string().optional(),
});
