// User-visible strings of the alerts: the bell, its list, browser notifications and the
// Settings → Notifications screen.
import type { TNotificationType } from '@titan/contracts';

export const NOTIFICATION_STRINGS = {
  bell: 'Notifications',
  bellUnread: (n: number) => `Notifications, ${n} unread`,
  heading: 'Notifications',
  markAllRead: 'Mark all read',
  markRead: 'Mark read',
  empty: 'Nothing new. You will see assignments, mentions and customer messages here.',
  loadFailed: 'Notifications could not be loaded.',
  open: 'Open the conversation',
  settingsLink: 'Notification settings',
  types: {
    assigned: 'Assigned to you',
    mentioned: 'Mentions of you in notes',
    new_message: 'New customer messages in your conversations',
    sla_breach: 'SLA breaches in your conversations',
  } satisfies Record<TNotificationType, string>,
  preferences: {
    title: 'Notifications',
    description:
      'Choose where each kind of notification reaches you. In the app: the bell and a sound. Push: your browser shows it even while Titan is in the background. Email: sent when a notification stays unread for 15 minutes.',
    kind: 'Notification',
    inApp: 'In the app',
    push: 'Push',
    email: 'Email',
    saved: 'Notification settings saved',
    browserTitle: 'This browser',
    browserDescription: 'Push notifications need your browser’s permission, asked once per browser.',
    enable: 'Turn on browser notifications',
    disable: 'Turn off in this browser',
    enabled: 'Browser notifications are on in this browser.',
    denied:
      'This browser blocks notifications from Titan. Allow them in the browser’s site settings, then reload.',
    unsupported: 'This browser cannot show push notifications.',
    failed: 'Browser notifications could not be turned on.',
    sound: 'Play a sound for new notifications',
  },
} as const;
