// The privacy module's face: a customer's export and erase (GDPR articles 15 and 17).
export { privacyRoutes } from './privacy.routes';
export { eraseCustomer, exportCustomer, type PrivacyDeps } from './privacy.service';
