// The signed-in user as client state (spec section 3: first_name, email, pk, username, businesses),
// empty at start and reset to empty on logout. Filled by the route guard from the profile.
import { create } from 'zustand';

import { registerClientStateReset } from '../lib/client-state';
import type { TProfile } from '../lib/session/profile';

export const EMPTY_USER: TProfile = {
  pk: 0,
  username: '',
  first_name: '',
  last_name: '',
  email: '',
  is_email_verified: false,
  businesses: [],
};

type TSessionState = {
  user: TProfile;
  setUser: (user: TProfile) => void;
};

const SESSION_INITIAL = { user: EMPTY_USER };

export const useSessionStore = create<TSessionState>()((set) => ({
  ...SESSION_INITIAL,
  setUser: (user) => set({ user }),
}));

registerClientStateReset(() => useSessionStore.setState(SESSION_INITIAL));
