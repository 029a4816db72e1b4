// The public face of the sms module: what other modules and the app's composition may use.
// Everything else in modules/sms/ is private to it (eslint: titan-server/module-faces).

export type { SmsDeps } from './sms.account';
export { smsBroadcastChannel } from './sms.broadcast';
export { defineSmsQueues } from './sms.jobs';
export { smsRoutes } from './sms.routes';
export { smsReplier, SMS_REPLY_ERRORS } from './sms.conversations';
export { customerInbound, deleteCustomerInbound } from './sms.repository';
export {
  buildSmsSend,
  e164Of,
  enqueueSmsSends,
  sendSms,
  SMS_SEND_ERRORS,
  SMS_SEND_QUEUE,
  smsContext,
} from './sms.service';
