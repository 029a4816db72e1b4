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
