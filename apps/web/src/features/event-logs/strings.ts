// User-visible strings of the event logs: the list of each channel's sends, its filters, and one
// send's page with its timeline. Tests and components share them from here.
import type { TEventLogChannel, TEventLogStatus } from '@titan/contracts';

type TChannelStrings = {
  /** The list's accessible name. */
  tableLabel: string;
  searchPlaceholder: string;
  emptyTitle: string;
  emptyText: string;
  /** The heading of one send's page. */
  title: string;
  noEvents: string;
  notFoundText: string;
  loadFailed: string;
};

export const EVENT_LOGS_STRINGS = {
  channels: {
    email: {
      tableLabel: 'Emails',
      searchPlaceholder: 'Search by address, subject or message id',
      emptyTitle: 'No emails sent yet',
      emptyText: 'Emails sent from Titan appear here with their delivery status.',
      title: 'Email',
      noEvents: 'No status updates for this email yet.',
      notFoundText: 'This email does not exist or belongs to another business.',
      loadFailed: 'The email logs could not be loaded.',
    },
    whatsapp: {
      tableLabel: 'WhatsApp messages',
      searchPlaceholder: 'Search by number, template or message id',
      emptyTitle: 'No WhatsApp messages yet',
      emptyText: 'Messages sent from Titan appear here with their delivery status.',
      title: 'WhatsApp message',
      noEvents: 'No status updates from WhatsApp yet.',
      notFoundText: 'This message does not exist or belongs to another business.',
      loadFailed: 'The WhatsApp logs could not be loaded.',
    },
    sms: {
      tableLabel: 'SMS messages',
      searchPlaceholder: 'Search by number or message id',
      emptyTitle: 'No SMS messages sent yet',
      emptyText: 'Text messages sent from Titan appear here with their delivery status.',
      title: 'SMS message',
      noEvents: 'No status updates for this message yet.',
      notFoundText: 'This message does not exist or belongs to another business.',
      loadFailed: 'The SMS logs could not be loaded.',
    },
  } satisfies Record<TEventLogChannel, TChannelStrings>,

  statusLabels: {
    queued: 'Queued',
    sending: 'Sending',
    accepted: 'Accepted',
    sent: 'Sent',
    delivered: 'Delivered',
    read: 'Read',
    opened: 'Opened',
    clicked: 'Clicked',
    failed: 'Failed',
    error: 'Error',
    bounced: 'Bounced',
    complained: 'Marked as spam',
    suppressed: 'Suppressed',
    cancelled: 'Cancelled',
  } satisfies Record<TEventLogStatus, string>,

  logs: {
    agentSender: (agent: string) => `Agent: ${agent}`,
    status: 'Status',
    allStatuses: 'All statuses',
    search: 'Search logs',
    clearSearch: 'Clear search',
    from: 'From',
    to: 'To',
    clearFilters: 'Clear filters',
    downloadCsv: 'Download CSV',
    downloading: 'Downloading…',
    downloadFailed: 'The CSV could not be downloaded.',
    columns: {
      recipient: 'Recipient',
      subject: 'Subject',
      type: 'Type',
      segments: 'Segments',
      status: 'Status',
      sentBy: 'Sent by',
      created: 'Created',
    },
    template: (name: string) => `Template: ${name}`,
    none: '—',
    noMatchesTitle: 'No messages found',
    noMatchesText: 'No messages match these filters.',
  },

  log: {
    back: 'Back to event logs',
    notFoundTitle: 'Log entry not found',
    lookupTitle: 'Event logs',
    lookupNotFoundText: 'No email, text or WhatsApp message of this business has this id.',
    lookupFailed: 'The event logs could not be searched for this id.',
    recipient: 'Recipient',
    subject: 'Subject',
    type: 'Type',
    template: 'Template',
    status: 'Status',
    error: 'Error',
    errorWithCode: (code: number, message: string) => `${message} (${code})`,
    sentBy: 'Sent by',
    created: 'Created',
    updated: 'Updated',
    messageId: 'Message id',
    conversation: 'Conversation',
    openConversation: 'Open conversation',
    pricing: 'Pricing category',
    billable: 'Billable',
    yes: 'Yes',
    no: 'No',
    timeline: 'Status timeline',
    request: 'Request',
    response: 'Response',
    noResponse: 'No response recorded.',
    human: 'Person',
    machine: 'Machine',
    machineReason: (reason: string) => `Machine (${reason.replaceAll('_', ' ')})`,
    clickedUrl: 'Link',
    userAgent: 'User agent',
    message: 'Message',
    from: 'From',
    to: 'To',
    htmlPart: 'HTML',
    textPart: 'Text',
    renderedFrame: 'Rendered email',
    noHtml: 'This email has no HTML part.',
    noText: 'This email has no text part.',
    noMessage: 'The message is recorded once it is handed to the mail server.',
    textMessage: 'Text message',
    segments: 'Segments',
    segmentsDetail: (segments: number, encoding: string, characters: number) =>
      `${segments} ${segments === 1 ? 'segment' : 'segments'} · ${encoding} · ${characters} ${characters === 1 ? 'character' : 'characters'}`,
    price: 'Price',
    priceValue: (price: string, unit: string | null) => `${price.replace(/^-/, '')} ${unit ?? ''}`.trim(),
    providerStatus: (status: string) => `Twilio: ${status}`,
  },

  metrics: {
    title: 'Email performance',
    loadFailed: 'The email metrics could not be loaded.',
    range: (from: string, to: string) => `Emails created ${from} – ${to}`,
    totals: {
      sent: 'Sent',
      delivered: 'Delivered',
      opened: 'Opened',
      clicked: 'Clicked',
      bounced: 'Bounced',
      complained: 'Spam complaints',
      unsubscribed: 'Unsubscribed',
    },
    humanOf: (human: number) => `${human.toLocaleString()} by people`,
    rates: {
      delivery: 'Delivery rate',
      open: 'Open rate',
      click: 'Click rate',
      click_to_open: 'Click-to-open',
      bounce: 'Bounce rate',
      unsubscribe: 'Unsubscribe rate',
    },
    ratesTitle: 'Rates',
    ratesHint: 'People only, with machine hits (privacy proxies, link scanners) included in the lighter bar.',
    all: 'All',
    people: 'People',
    noRate: '—',
    seriesTitle: 'Per day',
    seriesLabel: 'Emails per day: sent, delivered, opened, clicked and bounced',
    series: {
      sent: 'Sent',
      delivered: 'Delivered',
      opened: 'Opened',
      clicked: 'Clicked',
      bounced: 'Bounced',
    },
  },
} as const;
