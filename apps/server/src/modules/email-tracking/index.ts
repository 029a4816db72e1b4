// The public face of the email-tracking module: what other modules and the app's composition may use.
// Everything else in modules/email-tracking/ is private to it (eslint: titan-server/module-faces).

export { emailMetricsRoutes } from './email-metrics.routes';
export { emailTrackingRoutes, trackingFastPath } from './email-tracking.routes';
export { createEmailTracking, type EmailTracking, instrumentHtml } from './email-tracking.service';
