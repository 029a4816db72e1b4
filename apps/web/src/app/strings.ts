// User-visible strings of the generic screens (spec section 2) and the /engage shell, verbatim where
// the spec gives them.
export const ERROR_SCREEN_STRINGS = {
  heading: 'Oops!',
  text: 'Sorry, an unexpected error has occurred.',
  goBack: 'Go Back',
  tryAgain: 'Try Again',
} as const;

export const NOT_FOUND_STRINGS = {
  heading: 'Page not found',
  text: 'The page you are looking for does not exist or has moved.',
  backToDashboard: 'Back to dashboard',
} as const;

export const SHELL_STRINGS = {
  productName: 'Titan',
  navigation: 'Main navigation',
  openMenu: 'Open menu',
  closeMenu: 'Close menu',
  areas: {
    dashboard: 'Dashboard',
    conversations: 'Conversations',
    agents: 'Agents',
    templates: 'Templates',
    aiTemplate: 'AI template',
    knowledge: 'Knowledge base',
    campaigns: 'Campaigns',
    journeys: 'Journeys',
    eventLogs: 'Event logs',
    directory: 'Visitor directory',
    settings: 'Settings',
  },
  switchBusiness: 'Switch business',
  businesses: 'Businesses',
  accountMenu: 'Account menu',
  profile: 'Profile',
  logOut: 'Log out',
  presence: 'Status',
  presenceStatuses: { online: 'Online', away: 'Away', offline: 'Offline' },
  presenceOf: (status: string) => `Status: ${status}`,
  /** The channels an area's tabs show (event logs, templates). */
  channelTabs: { email: 'Email', whatsapp: 'WhatsApp', sms: 'SMS' },
} as const;

export type TArea = keyof typeof SHELL_STRINGS.areas;

/** Each screen's name in the browser tab ("Agents · Titan"); areas use their navigation label. */
export const PAGE_TITLES = {
  suffix: ' · Titan',
  /** While notifications are unread: "(3) Conversations · Titan". */
  unreadPrefix: (n: number) => `(${n > 99 ? '99+' : n}) `,
  login: 'Log in',
  signup: 'Sign up',
  forgotPassword: 'Forgot password',
  resetPassword: 'Reset password',
  signingIn: 'Signing in',
  confirmEmail: 'Confirm email',
  devOutbox: 'Development outbox',
  dnsHelp: 'DNS records help',
  unsubscribe: 'Unsubscribe',
  csat: 'Rate the conversation',
  confirmSubscription: 'Confirm subscription',
  preferences: 'Email preferences',
  qrForm: 'Sign up',
  invitation: 'Invitation',
  registerBusiness: 'Register your business',
  joinBusiness: 'Join a business',
  payment: 'Payment',
  newAgent: 'New agent',
  newJourney: 'New journey',
  journey: 'Journey',
  agent: 'Agent',
  whatsappTemplates: 'WhatsApp templates',
  emailTemplates: 'Email templates',
  newEmailTemplate: 'New email template',
  emailTemplate: 'Email template',
  emailBrand: 'Email brand',
  channelLog: (channel: keyof typeof SHELL_STRINGS.channelTabs) =>
    `${SHELL_STRINGS.channelTabs[channel]} event logs`,
  send: 'Send',
  runLog: 'Run log',
  run: 'Agent run',
  lists: 'Lists',
  newCampaign: 'New campaign',
  editCampaign: 'Edit campaign',
  campaign: 'Campaign',
  importCustomers: 'Import customers',
  list: 'List',
  visitor: 'Visitor',
  widgetEmbed: 'Widget embed',
  groupEmbed: 'Chat group embed',
  newArticle: 'New article',
  article: 'Article',
  importArticles: 'Import articles',
  aiReport: 'AI answers report',
  helpCentre: 'Help centre',
} as const;
