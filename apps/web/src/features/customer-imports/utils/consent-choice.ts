// The consent question's answer: what the wizard sends, or why it cannot start yet.
import type { TImportConsentChannel } from '@titan/contracts';

import type { TImportConsentChoice } from '../api/start-import';
import { IMPORT_STRINGS as S } from '../strings';

/** The question's state: nothing chosen yet, or a choice being filled in. */
export type TConsentDraft =
  null | { kind: 'unknown' } | { kind: 'subscribed'; proof: string; channels: TImportConsentChannel[] };

export const CONSENT_PROOF_MIN = 10;

/** The choice to send, or why it cannot be sent yet. */
export function consentChoice(draft: TConsentDraft): { choice: TImportConsentChoice } | { problem: string } {
  if (!draft) return { problem: S.consentMissing };
  if (draft.kind === 'unknown') return { choice: draft };
  if (draft.proof.trim().length < CONSENT_PROOF_MIN) return { problem: S.consentProofShort };
  if (draft.channels.length === 0) return { problem: S.consentChannelsNone };
  return { choice: draft };
}
