// The channels a visitor's consent is kept for, in the order the directory shows them.
import type { TConsentStatus } from '@titan/contracts';

import { DIRECTORY_STRINGS as S } from '../strings';

export const CONSENT_CHANNELS_SHOWN = ['email', 'sms', 'whatsapp'] as const;
export type TConsentChannelShown = (typeof CONSENT_CHANNELS_SHOWN)[number];

/** "Email: Subscribed". */
export function consentText(channel: TConsentChannelShown, status: TConsentStatus): string {
  return `${S.consentChannels[channel]}: ${S.consentStatuses[status]}`;
}
