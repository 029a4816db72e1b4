// User-visible strings of Settings → Email domains and the public /engage/dns-help page.
import type { TDnsRecordPurpose, TDnsRecordStatus, TEmailDomainStatus } from '@titan/contracts';

export const EMAIL_DOMAINS_STRINGS = {
  title: 'Email domains',
  description:
    'Send mail from your own domain. Add it, publish the records below at your DNS host, then verify.',
  help: 'How to add these records',
  addTitle: 'Add a domain',
  domainLabel: 'Domain',
  domainHint: 'The part after @ in the address you send from, e.g. example.com or mail.example.com.',
  domainPlaceholder: 'example.com',
  add: 'Add domain',
  adding: 'Adding…',
  added: (domain: string) => `${domain} added. Publish its records, then verify.`,
  empty: 'No email domains yet. Add the domain you want to send from.',
  notAllowed: 'Your role can see email domains but not change them. Ask an owner or admin.',
  recordsLabel: (domain: string) => `DNS records for ${domain}`,
  purpose: 'Purpose',
  type: 'Type',
  host: 'Host (name)',
  value: 'Value',
  status: 'Status',
  copyHost: (purpose: string) => `Copy ${purpose} host`,
  copyValue: (purpose: string) => `Copy ${purpose} value`,
  copy: 'Copy',
  verify: 'Verify',
  verifying: 'Checking…',
  verifyLabel: (domain: string) => `Verify ${domain}`,
  verified: (domain: string) => `${domain} is verified: you can send from it.`,
  notVerified: (domain: string, count: number) =>
    `${domain} is not verified yet: ${count} ${count === 1 ? 'record needs' : 'records need'} attention.`,
  lastChecked: (when: string) => `Last checked ${when}`,
  neverChecked: 'Not checked yet',
  delete: 'Delete',
  deleteLabel: (domain: string) => `Delete ${domain}`,
  deleteTitle: (domain: string) => `Delete ${domain}?`,
  deleteText:
    'Titan stops sending from this domain at once and forgets its DKIM key. Adding it again makes a new key, which you would have to publish again.',
  deleted: (domain: string) => `${domain} deleted.`,
  optionalRecord: 'Optional',
  domainStatus: {
    pending: 'Pending',
    verified: 'Verified',
    failed: 'Not verified',
  } satisfies Record<TEmailDomainStatus, string>,
  recordStatus: {
    ok: 'OK',
    missing: 'Missing',
    invalid: 'Invalid',
  } satisfies Record<TDnsRecordStatus, string>,
  purposes: {
    ownership: 'Ownership',
    spf: 'SPF',
    dkim: 'DKIM',
    dmarc: 'DMARC',
    return_path: 'Return path',
    mx: 'MX',
  } satisfies Record<TDnsRecordPurpose, string>,
} as const;

export const DNS_HELP_STRINGS = {
  title: 'Setting up your sending domain',
  intro:
    'To send mail from your own domain, Titan needs a few DNS records published where your domain is managed (your DNS host, often the company you bought the domain from). They prove the domain is yours and tell receiving mail servers that Titan may send for it, so your mail lands in the inbox instead of spam.',
  steps: [
    'In Titan, open Settings → Email domains and add your domain.',
    'Sign in to your DNS host and open the DNS records (or "zone") of the domain.',
    'Add each record Titan lists: same type, same host, same value. Use the copy buttons; do not retype keys.',
    "Back in Titan, press Verify. Titan asks your domain's own name servers, so a record shows up as soon as your DNS host has published it — usually within minutes.",
  ],
  recordsTitle: 'What each record does',
  hostsTitle: 'Adding records at common DNS hosts',
  hostNote:
    'Titan shows each host as a full name (for example _dmarc.example.com). Most DNS hosts want only the part before your domain (_dmarc) and add the domain themselves; if yours shows the full name after you save, it added the domain twice — remove the extra part.',
  troubleTitle: 'When a record does not verify',
  backToSettings: 'Back to Email domains',
  records: [
    {
      purpose: 'ownership',
      name: 'Ownership (TXT)',
      where: '_titan-verification.example.com',
      what: "Proves that your business controls the domain. The code is your business's own: if another Titan business adds the same domain, it gets a different code, and it cannot send as your domain unless that code is published too.",
      paste: 'A TXT record whose value is titan-verification= followed by your code, exactly as shown.',
    },
    {
      purpose: 'spf',
      name: 'SPF (TXT)',
      where: 'example.com (the domain itself; "@" at most DNS hosts)',
      what: 'Lists the servers allowed to send mail for your domain. Receivers check it against the server that hands them the message.',
      paste:
        "If the domain has no SPF record yet, add the value Titan shows. A domain must have exactly one SPF record: if one already exists (it starts with v=spf1), do not add a second — add Titan's include: to it, before the final ~all or -all. For example v=spf1 include:_spf.google.com ~all becomes v=spf1 include:_spf.google.com include:<Titan's SPF host> ~all. An SPF record may need at most 10 DNS lookups in total, so remove includes of services you no longer use.",
    },
    {
      purpose: 'dkim',
      name: 'DKIM (TXT)',
      where: '<selector>._domainkey.example.com, e.g. titan202611._domainkey.example.com',
      what: 'The public half of the key Titan signs every message with. Receivers use it to check that the message really comes from your domain and was not changed on the way. The selector carries a date, so Titan can move to a new key later: you then publish the new selector beside the old one before the switch.',
      paste:
        'The whole value, starting with v=DKIM1; k=rsa; p=. It is long (about 400 characters): use the copy button, and check that your DNS host kept all of it.',
    },
    {
      purpose: 'dmarc',
      name: 'DMARC (TXT)',
      where: '_dmarc.example.com',
      what: 'Tells receivers what to do with mail that claims to be from your domain but fails SPF and DKIM, and where to send reports. Gmail and Yahoo require a DMARC record from bulk senders.',
      paste:
        'If you have no DMARC record, add the value Titan shows (v=DMARC1; p=none; …). p=none only asks for reports; once they show all your mail passes, change it to p=quarantine or p=reject. If you already have a DMARC record with a policy, keep it: Titan only checks that one exists. Never publish two.',
    },
    {
      purpose: 'return_path',
      name: 'Return path (CNAME)',
      where: 'bounces.example.com',
      what: 'Mail from Titan uses an address under this name as its return path, so bounces (undeliverable mail) come back to Titan, which stops sending to addresses that do not exist. It also lets SPF align with your From domain for DMARC.',
      paste:
        'A CNAME record pointing to the host Titan shows. A CNAME cannot share its name with any other record: remove other records at bounces.example.com first.',
    },
  ],
  hosts: [
    {
      name: 'Cloudflare',
      steps: [
        'Open the domain in the Cloudflare dashboard and go to DNS → Records → Add record.',
        'Choose the type (TXT or CNAME). In Name, enter the part before your domain (_dmarc, bounces, titan202611._domainkey) or @ for the domain itself.',
        'Paste the value into Content (TXT) or Target (CNAME) and save. Cloudflare splits long TXT values for you.',
        'For the return-path CNAME, set Proxy status to "DNS only" (grey cloud): a proxied name answers with Cloudflare\'s addresses and bounces never reach Titan.',
      ],
    },
    {
      name: 'GoDaddy',
      steps: [
        'Go to My Products, find the domain and choose DNS (Manage DNS), then Add New Record.',
        'Pick the type; in Name enter the part before your domain (@ for the domain itself); paste the value; keep the default TTL and save.',
        'GoDaddy often has an SPF record already: edit that one instead of adding a second TXT starting with v=spf1.',
      ],
    },
    {
      name: 'Namecheap',
      steps: [
        'Go to Domain List, choose Manage beside the domain, then the Advanced DNS tab and Add New Record.',
        'Choose TXT Record or CNAME Record; in Host enter the part before your domain (@ for the domain itself); paste the value and save with the green tick.',
        'Records here only count while the domain uses Namecheap BasicDNS (or PremiumDNS) under Nameservers; with custom name servers, add the records where those servers are managed.',
      ],
    },
    {
      name: 'Amazon Route 53',
      steps: [
        "Open Hosted zones, choose the domain's public zone and Create record.",
        'In Record name enter the part before your domain (leave it empty for the domain itself); choose the record type.',
        'TXT values go in double quotes. A value longer than 255 characters (the DKIM key) must be split into several quoted pieces on one line, e.g. "v=DKIM1; k=rsa; p=MIIB…" "…rest of the key" — receivers join them back together.',
        'Route 53 keeps all TXT values of one name in one record: to add SPF beside an existing TXT value at the domain, add it as another line of that record.',
      ],
    },
    {
      name: 'Squarespace Domains (formerly Google Domains)',
      steps: [
        'Google Domains moved to Squarespace in 2023. Open the domain in Squarespace, then DNS → DNS Settings.',
        'Under Custom records choose Add record; enter the Host (the part before your domain, or @ for the domain itself), pick the type, paste the value in Data and save.',
        "If the domain uses another provider's name servers, make the change there instead.",
      ],
    },
  ],
  trouble: [
    'The name came out doubled (e.g. _dmarc.example.com.example.com): the DNS host added your domain to the name you typed. Enter only the part before your domain.',
    '"Two SPF records": a domain may have one TXT record starting with v=spf1. Merge them into one with every include: in it.',
    '"DKIM public key mismatch": the value was cut or changed. Copy it again with the copy button; on Route 53 split it into quoted pieces of at most 255 characters.',
    'Still "missing" although your DNS host shows the record: Titan asks the name servers your domain is delegated to. If the domain\'s name servers (at the registrar) point to another provider — say Cloudflare — records added at the registrar have no effect; add them at that provider.',
    'A CNAME cannot coexist with other records of the same name: remove any TXT or MX at bounces.example.com before adding the CNAME.',
    'A record that could not be checked ("did not answer in time") is not wrong: your name servers were slow or unreachable. Verify again a little later.',
  ],
} as const;

/** Settings → Inbox addresses: where customers' mail reaches the inbox. */
export const INBOX_ADDRESSES_STRINGS = {
  title: 'Inbox addresses',
  description:
    'Mail to these addresses opens or continues the sender’s email conversation in the inbox. Staff answer from the same address.',
  addTitle: 'Add an inbox address',
  localPart: 'Address',
  localPartHint: 'The part before the @, e.g. support or hello.',
  domain: 'Domain',
  chatGroup: 'Chat group',
  noChatGroup: 'No chat group',
  chatGroupHint: 'Conversations this address opens go to this chat group.',
  add: 'Add address',
  adding: 'Adding…',
  added: (address: string) => `${address} added. Publish one of its records so mail reaches Titan.`,
  noVerifiedDomain: 'Verify a sending domain first: an inbox address lives on a verified domain.',
  goToDomains: 'Email domains',
  empty: 'No inbox addresses yet. Add one so customers can write to you.',
  notAllowed: 'Your role can see inbox addresses but not change them. Ask an owner or admin.',
  routedTo: (group: string) => `Opens conversations in ${group}`,
  recordsLabel: (address: string) => `How mail for ${address} reaches Titan`,
  recordsIntro: 'Publish the MX record, or keep your mail server and have it relay this one address.',
  type: 'Type',
  host: 'Host (name)',
  value: 'Value',
  priority: 'Priority',
  what: 'What it does',
  purposes: { receive: 'Receive all mail', forward: 'Relay one address' },
  copy: 'Copy',
  copyHost: (purpose: string) => `Copy ${purpose} host`,
  copyValue: (purpose: string) => `Copy ${purpose} value`,
  delete: 'Delete',
  deleteLabel: (address: string) => `Delete ${address}`,
  deleteTitle: (address: string) => `Delete ${address}?`,
  deleteText:
    'Mail to this address is refused from now on. Its conversations stay in the inbox, and replies to mail already sent still arrive.',
  deleted: (address: string) => `${address} deleted.`,
} as const;
