// The public face of the consent module: what other modules and the app's composition may use.
// Everything else in modules/consent/ is private to it (eslint: titan-server/module-faces).

export {
  adoptSuppressions,
  adoptSuppressionsOf,
  confirmOptIn,
  maySubscribeAtOnce,
  optIn,
  optOut,
  recordConsentEvent,
  recordImportedConsent,
  setCustomerConsent,
  updateVisitorAndConsent,
} from './consent.service';
