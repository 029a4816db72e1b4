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
    eventLogs: 'Event logs',
    directory: 'Visitor directory',
    settings: 'Settings',
  },
  switchBusiness: 'Switch business',
  businesses: 'Businesses',
  accountMenu: 'Account menu',
  profile: 'Profile',
  logOut: 'Log out',
  /** The channels an area's tabs show (event logs, templates). */
  channelTabs: { email: 'Email', whatsapp: 'WhatsApp', sms: 'SMS' },
} as const;

export type TArea = keyof typeof SHELL_STRINGS.areas;

/** Each screen's name in the browser tab ("Agents · Titan"); areas use their navigation label. */
export const PAGE_TITLES = {
  suffix: ' · Titan',
  login: 'Log in',
  signup: 'Sign up',
  forgotPassword: 'Forgot password',
  resetPassword: 'Reset password',
  signingIn: 'Signing in',
  confirmEmail: 'Confirm email',
  devOutbox: 'Development outbox',
  dnsHelp: 'DNS records help',
  unsubscribe: 'Unsubscribe',
  confirmSubscription: 'Confirm subscription',
  qrForm: 'Sign up',
  invitation: 'Invitation',
  registerBusiness: 'Register your business',
  joinBusiness: 'Join a business',
  payment: 'Payment',
  newAgent: 'New agent',
  agent: 'Agent',
  whatsappTemplates: 'WhatsApp templates',
  emailTemplates: 'Email templates',
  newEmailTemplate: 'New email template',
  emailTemplate: 'Email template',
  channelLog: (channel: keyof typeof SHELL_STRINGS.channelTabs) =>
    `${SHELL_STRINGS.channelTabs[channel]} event logs`,
  send: 'Send',
  runLog: 'Run log',
  run: 'Agent run',
  lists: 'Lists',
  importCustomers: 'Import customers',
  list: 'List',
  visitor: 'Visitor',
  widgetEmbed: 'Widget embed',
  groupEmbed: 'Chat group embed',
} as const;
