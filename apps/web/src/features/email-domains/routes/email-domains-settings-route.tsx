// /engage/settings/email-domains: the Email domains tab, composed into the settings shell by the app.
import { EmailDomainsTab } from '../components/email-domains-tab';

export function EmailDomainsSettingsRoute() {
  return <EmailDomainsTab />;
}
