// The public face of the consent module: what other modules and the app's composition may use.
// Everything else in modules/consent/ is private to it (eslint: titan-server/module-faces).

export {
  adoptSuppressions,
  adoptSuppressionsOf,
  confirmOptIn,
  listConsentEvents,
  maySubscribeAtOnce,
  optIn,
  optOut,
  recordConsentEvent,
  recordImportedConsent,
  setCustomerConsent,
  updateVisitorAndConsent,
} from './consent.service';
export { deleteCustomerConsentEvents, topicIdsAmong } from './consent.repository';
export { askToConfirmJoin, confirmSmsReply, type DoubleOptInDeps } from './consent.double-opt-in';
// Topics: campaigns target one (check it with topicExists, pass over customersOutOfTopic).
export {
  chooseTopics,
  customersOutOfTopic,
  customerTopicIds,
  getConsentPage,
  getTopic,
  leaveTopic,
  listTopics,
  pageLocaleOf,
  topicChoices,
  topicExists,
  type TopicRow,
} from './consent.topics';
export { consentRoutes, type ConsentRouteDeps } from './consent.routes';
