// User-visible strings of the dashboard (/engage).
export const DASHBOARD_STRINGS = {
  heading: 'Dashboard',
  rangeLabel: 'Date range',
  ranges: { '7': 'Last 7 days', '30': 'Last 30 days', '90': 'Last 90 days', custom: 'Custom' },
  from: 'From',
  to: 'To',
  badRange: 'Choose a start on or before the end, at most 366 days apart.',
  loadFailed: 'The dashboard could not be loaded.',
  emptyTitle: 'Nothing has happened in these days yet',
  emptyText:
    'Start by connecting a channel: add the chat widget to your website, connect WhatsApp or SMS in Settings, or create an agent that reaches out for you.',
  startWidget: 'Add the chat widget',
  startChannels: 'Connect WhatsApp',
  startAgent: 'Create an agent',

  team: {
    title: 'Team service levels',
    description:
      'Average first response and resolution of the conversations opened in these days, and the customers’ ratings, per member who held them and per chat group.',
    members: 'Per member',
    groups: 'Per chat group',
    name: 'Name',
    conversations: 'Conversations',
    firstResponse: 'First response',
    resolution: 'Resolution',
    csat: 'CSAT',
    csatValue: (average: number, n: number) => `${average.toFixed(1)} / 5 (${n})`,
    none: '—',
    empty: 'No conversation was assigned in these days.',
  },

  conversations: {
    title: 'Conversations',
    opened: 'Opened',
    unanswered: 'Waiting for a reply',
    median: 'Median first response',
    noMedian: 'No replies yet',
    chart: 'Conversations per day',
    seriesOpened: 'Opened',
    seriesUnanswered: 'Still unanswered',
    empty: 'No conversations started in these days. Customers start them from the chat widget or WhatsApp.',
  },
  sends: {
    title: 'Messages sent',
    chart: 'Messages per day and channel',
    channels: { email: 'Email', sms: 'SMS', whatsapp: 'WhatsApp', titan_message: 'Chat' },
    outcomes: {
      total: 'Total',
      delivered: 'Delivered',
      sent: 'Sent',
      pending: 'Waiting',
      failed: 'Failed',
      not_sent: 'Not sent',
    },
    empty: 'Nothing was sent in these days. Reply in the inbox, send a template, or let an agent reach out.',
  },
  email: {
    title: 'Email engagement',
    hint: 'Of delivered email, opened and clicked by people (machine opens and link scanners left out).',
    open: 'Open rate',
    click: 'Click rate',
    none: '—',
    people: 'People',
    all: 'all',
    empty: 'No email was delivered in these days.',
  },
  agents: {
    title: 'Agents',
    deliveries: 'Messages agents sent',
    runsTitle: 'Agent runs',
    runs: { total: 'Runs', completed: 'Completed', failed: 'Failed', awaiting_approval: 'Awaiting approval' },
    empty: 'No agent has sent anything in these days. Create an agent to reach customers on a schedule.',
  },
  duration: (seconds: number) => {
    if (seconds < 60) return `${seconds} s`;
    const minutes = Math.round(seconds / 60);
    if (minutes < 60) return `${minutes} min`;
    const hours = Math.floor(minutes / 60);
    const rest = minutes % 60;
    if (hours < 24) return rest ? `${hours} h ${rest} min` : `${hours} h`;
    const days = Math.floor(hours / 24);
    return `${days} d ${hours % 24} h`;
  },
} as const;
