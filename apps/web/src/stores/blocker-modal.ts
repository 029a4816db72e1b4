// The blocker modal (spec sections 3, 4, 8): opened with the dialog of any 402 answer.
import type { ZPaymentRequiredResult } from '@titan/contracts';
import type { z } from 'zod';
import { create } from 'zustand';

import { registerClientStateReset } from '../lib/client-state';

type TDialog = z.infer<typeof ZPaymentRequiredResult>['dialog'];

type TBlockerModalState = TDialog & {
  open: boolean;
  show: (dialog: TDialog) => void;
  close: () => void;
};

export const BLOCKER_MODAL_INITIAL = { open: false, title: '', description: '' } as const;

export const useBlockerModalStore = create<TBlockerModalState>()((set) => ({
  ...BLOCKER_MODAL_INITIAL,
  show: (dialog) => set({ open: true, title: dialog.title, description: dialog.description }),
  close: () => set({ open: false }),
}));

registerClientStateReset(() => useBlockerModalStore.setState(BLOCKER_MODAL_INITIAL));
