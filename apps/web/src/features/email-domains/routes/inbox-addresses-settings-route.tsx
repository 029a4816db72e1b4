// /engage/settings/inbox-addresses: the Inbox addresses tab, composed into the settings shell by the app.
import { InboxAddressesTab } from '../components/inbox-addresses-tab';

export function InboxAddressesSettingsRoute() {
  return <InboxAddressesTab />;
}
