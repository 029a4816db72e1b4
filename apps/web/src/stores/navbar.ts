// Whether the /engage navbar shows (spec section 3: isVisible, default true). Full-bleed screens
// (e.g. the conversations pane on a phone) hide it.
import { create } from 'zustand';

import { registerClientStateReset } from '../lib/client-state';

type TNavbarState = {
  isVisible: boolean;
  setVisible: (isVisible: boolean) => void;
};

export const NAVBAR_INITIAL = { isVisible: true } as const;

export const useNavbarStore = create<TNavbarState>()((set) => ({
  ...NAVBAR_INITIAL,
  setVisible: (isVisible) => set({ isVisible }),
}));

registerClientStateReset(() => useNavbarStore.setState(NAVBAR_INITIAL));
