// /engage/dns-help (public, no sign-in): how to publish a sending domain's records.
import { DnsHelp } from '../components/dns-help';

export function DnsHelpRoute() {
  return <DnsHelp />;
}
