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

/** Each permission in plain language: the Settings → Roles checkboxes and the API docs read this. */
export const PERMISSION_INFO: Record<TPermission, { label: string; description: string }> = {
  'inbox.use': {
    label: 'Use the inbox',
    description: 'Read and answer conversations, assign them and change their status.',
  },
  'engage.read': {
    label: 'See customers and campaigns',
    description: 'View customers, lists, templates, campaigns, reports and settings, without changing them.',
  },
  'engage.write': {
    label: 'Change customers and content',
    description: 'Create, edit and delete customers, lists, templates, agents, channels and chat groups.',
  },
  'engage.send': {
    label: 'Send messages',
    description: 'Send campaigns and one-off email, SMS and WhatsApp messages.',
  },
  'team.manage': {
    label: 'Manage the team',
    description: 'Invite, remove and change the roles of members; define custom roles.',
  },
  'business.update': {
    label: 'Change business settings',
    description: 'Edit the business name, time zone, domains, widget and integrations.',
  },
  'api_keys.manage': { label: 'Manage API keys', description: 'Create and revoke API keys.' },
  'billing.manage': { label: 'Manage billing', description: 'Change the plan and payment details.' },
  'business.delete': { label: 'Delete the business', description: 'Delete the business and all its data.' },
  'ownership.transfer': {
    label: 'Grant ownership',
    description: 'Make others owners or change an owner’s role.',
  },
};

/** The permissions a custom role may hold: the owner's own three stay with owners. */
export const CUSTOM_ROLE_PERMISSIONS = PERMISSIONS.filter(
  (p) => p !== 'billing.manage' && p !== 'business.delete' && p !== 'ownership.transfer',
);
export const ZCustomRolePermission = z.enum(CUSTOM_ROLE_PERMISSIONS as [TPermission, ...TPermission[]], {
  message: 'Choose permissions from the list.',
});

/** A role a member or API key holds: a built-in role by value or a custom role by id. */
export const ZRoleRef = z.union([ZRole, z.number().int().positive()], {
  message: 'Select a valid choice: owner, admin, agent.',
});
export type TRoleRef = z.infer<typeof ZRoleRef>;

/** GET /api/business/roles/: the built-in roles (value) and the business's custom roles (value = id). */
export const ZRoleInfo = z.object({
  value: ZRoleRef,
  label: z.string(),
  permissions: z.array(ZPermission),
  /** true for a business's own role (editable at /api/business/roles/{id}/). */
  custom: z.boolean().default(false),
  /** A custom role's chat group scope; null: the whole business. */
  chat_group_ids: z.array(z.number().int()).nullable().default(null),
});
export type TRoleInfo = z.input<typeof ZRoleInfo>;
export type TRoleInfoOut = z.output<typeof ZRoleInfo>;

export const ZCustomRole = z.object({
  id: z.number().int(),
  name: z.string(),
  permissions: z.array(ZPermission),
  chat_group_ids: z.array(z.number().int()).nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TCustomRole = z.infer<typeof ZCustomRole>;

export const CUSTOM_ROLE_NAME_TAKEN = 'A role with this name already exists.';
export const CUSTOM_ROLE_IN_USE = 'Members or API keys hold this role. Give them another role first.';
export const CUSTOM_ROLE_RESERVED = 'Owner, Admin and Agent are built-in role names.';

export const ZCustomRoleRequest = z.strictObject({
  name: z
    .string()
    .trim()
    .min(1)
    .max(60)
    .refine((v) => !['owner', 'admin', 'agent'].includes(v.toLowerCase()), { message: CUSTOM_ROLE_RESERVED }),
  permissions: z
    .array(ZCustomRolePermission)
    .min(1, 'Choose at least one permission.')
    .transform((ps) => [...new Set(ps)]),
  /** Only these chat groups' conversations (and unassigned ones); null or left out: all. */
  chat_group_ids: z.array(z.number().int().positive()).max(200).nullable().optional(),
});
export type TCustomRoleRequest = z.input<typeof ZCustomRoleRequest>;

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
  /** A built-in role, or a custom role's id. */
  role: ZRoleRef,
  subscription_status: ZSubscriptionStatus,
});
export type TMembershipSummary = z.infer<typeof ZMembershipSummary>;

export const ZMemberUser = z.object({
  pk: z.number().int(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
});

/** A member's presence (next-api.md "Team inbox"): set by hand, away when idle, offline when gone. */
export const PRESENCE_STATUSES = ['online', 'away', 'offline'] as const;
export const ZPresenceStatus = z.enum(PRESENCE_STATUSES);
export type TPresenceStatus = z.infer<typeof ZPresenceStatus>;

export const ZMember = z.object({
  id: z.number().int(),
  user: ZMemberUser,
  /** A built-in role, or a custom role's id. */
  role: ZRoleRef,
  joined_at: z.string(),
  /** Always sent by the server (offline when never set); optional for clients built before it. */
  presence: ZPresenceStatus.optional(),
});
export type TMember = z.infer<typeof ZMember>;

export const ZInviteMemberRequest = z.object({
  email: z
    .email()
    .max(254)
    .transform((v) => v.trim().toLowerCase()),
  /** A built-in role, or a custom role's id. */
  role: ZRoleRef,
});
export type TInviteMemberRequest = z.input<typeof ZInviteMemberRequest>;

export const ZUpdateMemberRequest = z.object({ role: ZRoleRef });
export type TUpdateMemberRequest = z.infer<typeof ZUpdateMemberRequest>;

export const ZInvitation = z.object({
  id: z.number().int(),
  email: z.string(),
  /** A built-in role, or a custom role's id. */
  role: ZRoleRef,
  expires_at: z.string(),
  created_at: z.string(),
  invited_by: ZMemberUser.nullable(),
});
export type TInvitation = z.infer<typeof ZInvitation>;

export const ZInvitationLookupQuery = z.object({ token: z.string().min(1).max(200) });

export const ZInvitationInfo = z.object({
  business: z.object({ name: z.string(), unique_code: z.string() }),
  email: z.string(),
  /** A built-in role, or a custom role's id. */
  role: ZRoleRef,
  /** The role's name as the invitee reads it ("Agent", or a custom role's name). */
  role_label: z.string().optional(),
  expires_at: z.string(),
});
export type TInvitationInfo = z.infer<typeof ZInvitationInfo>;

export const ZAssignRequest = z.union([
  z.object({ token: z.string().min(1).max(200) }).strict(),
  z.object({ unique_code: z.string().trim().min(1).max(64) }).strict(),
]);
export type TAssignRequest = z.infer<typeof ZAssignRequest>;

export const JOIN_REQUEST_STATUSES = ['pending', 'approved', 'rejected'] as const;
export const ZJoinRequestStatus = z.enum(JOIN_REQUEST_STATUSES);
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
  /** A built-in role, or a custom role's id; null while the join request waits. */
  role: ZRoleRef.nullable(),
});
export type TAssignResult = z.infer<typeof ZAssignResult>;

export const ZDecideJoinRequest = z.object({
  approve: z.boolean(),
  /** A built-in role, or a custom role's id. */
  role: ZRoleRef.optional().default('agent'),
});
export type TDecideJoinRequest = z.input<typeof ZDecideJoinRequest>;

export const ZApiKey = z.object({
  id: z.number().int(),
  name: z.string(),
  prefix: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  expires_at: z.string().nullable(),
  /** The key's role, or null for a key made before roles: agent's permissions plus sending. */
  role: ZRoleRef.nullable().default(null),
});
export type TApiKey = z.infer<typeof ZApiKey>;

export const ZCreateApiKeyRequest = z.object({
  name: z.string().trim().min(1).max(100),
  expires_at: z.iso.datetime({ offset: true }).optional().nullable(),
  /** A built-in role or a custom role's id; left out: agent's permissions plus sending. */
  role: ZRoleRef.optional().nullable(),
});
export type TCreateApiKeyRequest = z.infer<typeof ZCreateApiKeyRequest>;

/** The key itself is in this answer only; it is never shown again. */
export const ZCreatedApiKey = ZApiKey.extend({ key: z.string() });
export type TCreatedApiKey = z.infer<typeof ZCreatedApiKey>;

export const ZIdParams = z.object({ id: z.coerce.number().int().positive() });
