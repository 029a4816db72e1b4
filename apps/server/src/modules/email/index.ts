// The public face of the email module: what other modules and the app's composition may use.
// Everything else in modules/email/ is private to it (eslint: titan-server/module-faces).

export { startBounceListener } from './email.bounce-server';
export { asBatch, emailBroadcastChannel, startListSend } from './email.broadcast';
export { defineEmailQueues } from './email.jobs';
export { emailRoutes } from './email.routes';
export { emailInboxRoutes } from './email.inboxes.routes';
export { emailReplier } from './email.conversations';
export {
  buildSend,
  createEmailDeps,
  EMAIL_ERRORS,
  EMAIL_SEND_QUEUE,
  type EmailDeps,
  enqueueEmailSends,
  sendContext,
  textOf,
  withUnsubscribeFooter,
} from './email.service';
