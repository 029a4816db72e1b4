// Businesses, roles, members, invitations, join requests and API keys (api.md "Business context").
import { z } from 'zod';

export const ROLES = ['owner', 'admin', 'agent'] as const;
export const ZRole = z.enum(ROLES);
export type TRole = z.infer<typeof ZRole>;

/** Chargebee's subscription statuses as Titan keeps them (engage.md §8); `inactive`: none yet. */
export const SUBSCRIPTION_STATUSES = [
  'inactive',
  'in_trial',
  'active',
  'non_renewing',
  'paused',
  'cancelled',
] as const;
export const ZSubscriptionStatus = z.enum(SUBSCRIPTION_STATUSES);

export const PERMISSIONS = [
  'inbox.use',
  'engage.read',
  'engage.write',
  'engage.send',
  'team.manage',
  'business.update',
  'api_keys.manage',
  'billing.manage',
  'business.delete',
  'ownership.transfer',
] as const;
export const ZPermission = z.enum(PERMISSIONS);
export type TPermission = z.infer<typeof ZPermission>;

export const ZRoleInfo = z.object({ value: ZRole, label: z.string(), permissions: z.array(ZPermission) });
export type TRoleInfo = z.infer<typeof ZRoleInfo>;

export const ZBusiness = z.object({
  id: z.number().int(),
  name: z.string(),
  phone_number: z.string().nullable(),
  dial_code: z.string().nullable(),
  created_on: z.string(),
  created_by: z.number().int().nullable(),
  updated_on: z.string(),
  updated_by: z.number().int().nullable(),
  unique_code: z.string(),
  sms_count: z.number().int(),
  email_count: z.number().int(),
  whatsapp_count: z.number().int(),
  subscription_status: ZSubscriptionStatus,
  /** IANA time zone: quiet hours (customers without their own), dashboards' days, schedules, reports. */
  time_zone: z.string(),
  /** Members must sign in with a second factor (owners set it). */
  require_2fa: z.boolean().default(false),
});
export type TBusiness = z.infer<typeof ZBusiness>;

const phone = z
  .string()
  .trim()
  .regex(/^[0-9 ()-]{4,20}$/, { message: 'Enter a valid phone number.' });
const dialCode = z
  .string()
  .trim()
  .regex(/^\+[0-9]{1,4}$/, { message: 'Enter a dial code like +1 or +44.' });

export const TIME_ZONE_MESSAGE = 'Choose a time zone from the list, such as Europe/Berlin.';

/**
 * The IANA zones this runtime lists (`Intl.supportedValuesOf('timeZone')`), plus UTC. A browser may
 * name a zone by a newer alias (Europe/Kyiv) than the list holds (Europe/Kiev): an alias Intl
 * resolves to a listed zone is accepted too.
 */
export function supportedTimeZones(): string[] {
  const intl = Intl as unknown as { supportedValuesOf?: (key: string) => string[] };
  const listed = typeof intl.supportedValuesOf === 'function' ? intl.supportedValuesOf('timeZone') : [];
  return listed.includes('UTC') ? listed : ['UTC', ...listed];
}

let zoneSet: Set<string> | null = null;
export function isSupportedTimeZone(value: string): boolean {
  zoneSet ??= new Set(supportedTimeZones());
  if (zoneSet.has(value)) return true;
  try {
    const resolved = new Intl.DateTimeFormat('en-US', { timeZone: value }).resolvedOptions().timeZone;
    return zoneSet.has(resolved) || resolved === 'UTC' || resolved === 'Etc/UTC';
  } catch {
    return false;
  }
}

export const ZTimeZone = z.string().trim().min(1, TIME_ZONE_MESSAGE).refine(isSupportedTimeZone, {
  message: TIME_ZONE_MESSAGE,
});

/** A business name is one line (it is the From name of the business's mail). */
export const BUSINESS_NAME_LINE_BREAK = 'The business name cannot contain a line break.';

export const ZCreateBusinessRequest = z.object({
  name: z
    .string()
    .trim()
    .min(1)
    .max(150)
    .refine((v) => !/[\r\n]/.test(v), { message: BUSINESS_NAME_LINE_BREAK }),
  phone_number: phone.optional().nullable(),
  dial_code: dialCode.optional().nullable(),
  /** Defaults to UTC when left out (the web app sends the browser's zone). */
  time_zone: ZTimeZone.optional(),
});
export type TCreateBusinessRequest = z.infer<typeof ZCreateBusinessRequest>;

export const ZUpdateBusinessRequest = ZCreateBusinessRequest.partial().extend({
  require_2fa: z.boolean().optional(),
});
export type TUpdateBusinessRequest = z.infer<typeof ZUpdateBusinessRequest>;

/** A business as listed in the signed-in user's profile. */
export const ZMembershipSummary = z.object({
  id: z.number().int(),
  name: z.string(),
  unique_code: z.string(),
  role: ZRole,
  subscription_status: ZSubscriptionStatus,
});
export type TMembershipSummary = z.infer<typeof ZMembershipSummary>;

export const ZMemberUser = z.object({
  pk: z.number().int(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
});

export const ZMember = z.object({
  id: z.number().int(),
  user: ZMemberUser,
  role: ZRole,
  joined_at: z.string(),
});
export type TMember = z.infer<typeof ZMember>;

export const ZInviteMemberRequest = z.object({
  email: z
    .email()
    .max(254)
    .transform((v) => v.trim().toLowerCase()),
  role: ZRole,
});
export type TInviteMemberRequest = z.input<typeof ZInviteMemberRequest>;

export const ZUpdateMemberRequest = z.object({ role: ZRole });
export type TUpdateMemberRequest = z.infer<typeof ZUpdateMemberRequest>;

export const ZInvitation = z.object({
  id: z.number().int(),
  email: z.string(),
  role: ZRole,
  expires_at: z.string(),
  created_at: z.string(),
  invited_by: ZMemberUser.nullable(),
});
export type TInvitation = z.infer<typeof ZInvitation>;

export const ZInvitationLookupQuery = z.object({ token: z.string().min(1).max(200) });

export const ZInvitationInfo = z.object({
  business: z.object({ name: z.string(), unique_code: z.string() }),
  email: z.string(),
  role: ZRole,
  expires_at: z.string(),
});
export type TInvitationInfo = z.infer<typeof ZInvitationInfo>;

export const ZAssignRequest = z.union([
  z.object({ token: z.string().min(1).max(200) }).strict(),
  z.object({ unique_code: z.string().trim().min(1).max(64) }).strict(),
]);
export type TAssignRequest = z.infer<typeof ZAssignRequest>;

export const ZJoinRequestStatus = z.enum(['pending', 'approved', 'rejected']);
export const ZJoinRequest = z.object({
  id: z.number().int(),
  user: ZMemberUser,
  status: ZJoinRequestStatus,
  created_at: z.string(),
});
export type TJoinRequest = z.infer<typeof ZJoinRequest>;

/** Answer of POST /api/business/users/assign/: joined now (invitation) or waiting (join request). */
export const ZAssignResult = z.object({
  status: z.enum(['joined', 'pending']),
  business: z.object({ id: z.number().int(), name: z.string(), unique_code: z.string() }),
  role: ZRole.nullable(),
});
export type TAssignResult = z.infer<typeof ZAssignResult>;

export const ZDecideJoinRequest = z.object({ approve: z.boolean(), role: ZRole.optional().default('agent') });
export type TDecideJoinRequest = z.input<typeof ZDecideJoinRequest>;

export const ZApiKey = z.object({
  id: z.number().int(),
  name: z.string(),
  prefix: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  expires_at: z.string().nullable(),
});
export type TApiKey = z.infer<typeof ZApiKey>;

export const ZCreateApiKeyRequest = z.object({
  name: z.string().trim().min(1).max(100),
  expires_at: z.iso.datetime({ offset: true }).optional().nullable(),
});
export type TCreateApiKeyRequest = z.infer<typeof ZCreateApiKeyRequest>;

/** The key itself is in this answer only; it is never shown again. */
export const ZCreatedApiKey = ZApiKey.extend({ key: z.string() });
export type TCreatedApiKey = z.infer<typeof ZCreatedApiKey>;

export const ZIdParams = z.object({ id: z.coerce.number().int().positive() });
