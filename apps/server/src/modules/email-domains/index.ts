// The public face of the email-domains module: what other modules and the app's composition may use.
// Everything else in modules/email-domains/ is private to it (eslint: titan-server/module-faces).

export { emailDomainRoutes } from './email-domains.routes';
export {
  defaultSenderOf,
  EMAIL_DOMAINS_RECHECK_CRON,
  EMAIL_DOMAINS_RECHECK_QUEUE,
  type EmailDomainDeps,
  findDomainOf,
  recheckVerifiedDomains,
  type SendingIdentity,
  sendingIdentityFor,
} from './email-domains.service';
