// /engage/settings/notifications: the member's notification preferences and this browser's push.
import { NotificationPreferences } from '../components/notification-preferences';

export function NotificationSettingsRoute() {
  return <NotificationPreferences />;
}
