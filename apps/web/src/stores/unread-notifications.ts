// The member's unread notification count, kept by the notification bell (features/notifications)
// and read by the shell: the browser tab's title and the navigation's badge.
import { create } from 'zustand';

import { registerClientStateReset } from '../lib/client-state';

type TUnreadState = { count: number; setCount: (count: number) => void };

export const useUnreadNotifications = create<TUnreadState>()((set) => ({
  count: 0,
  setCount: (count) => set({ count }),
}));

registerClientStateReset(() => useUnreadNotifications.setState({ count: 0 }));
