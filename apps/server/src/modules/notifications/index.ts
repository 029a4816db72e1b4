// The public face of the notifications module: what the app's composition uses.
// Everything else in modules/notifications/ is private to it (eslint: titan-server/module-faces).

export { attachNotificationFeed } from './notifications.derive';
export { catchUpNotifications, defineNotificationJobs } from './notifications.jobs';
export { notificationRoutes } from './notifications.routes';
export { type NotificationDeps } from './notifications.service';
export { notificationTopics } from './notifications.topics';
