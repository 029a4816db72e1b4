// User-visible strings of creating, joining and being invited to a business.
import type { TRole } from '@titan/contracts';

export const ROLE_LABELS: Record<TRole, string> = { owner: 'Owner', admin: 'Admin', agent: 'Agent' };

export const ONBOARDING_STRINGS = {
  logOut: 'Log out',

  registerTitle: 'Create your business',
  registerDescription: 'Your business is where your team, channels and customers live.',
  businessName: 'Business name',
  dialCode: 'Dial code',
  dialCodeHint: 'For example +1 or +44.',
  phoneNumber: 'Phone number',
  timeZone: 'Time zone',
  optional: '(optional)',
  registerSubmit: 'Create business',
  registerSubmitting: 'Creating…',
  joinInstead: 'Joining a team instead?',
  joinInsteadLink: 'Join an existing business',

  joinTitle: 'Join an existing business',
  joinDescription: 'Ask an owner or admin for the business code shown in their business settings.',
  businessCode: 'Business code',
  joinSubmit: 'Send join request',
  joinSubmitting: 'Sending…',
  joinPendingTitle: 'Request sent, waiting for approval',
  joinPendingText: (name: string) =>
    `We asked ${name} to let you in. An owner or admin approves requests in their team settings; log in again once they have.`,
  createInstead: 'Starting your own?',
  createInsteadLink: 'Create a business',
  goToDashboard: 'Go to dashboard',

  invitationLoading: 'Loading invitation…',
  invitationTitle: (business: string) => `Join ${business} on Titan`,
  invitationText: (email: string, role: string) => `This invitation is for ${email}, to join as ${role}.`,
  invitationExpires: (date: string) => `It expires on ${date}.`,
  invitationInvalidTitle: 'This invitation is invalid or has expired',
  invitationInvalidText: 'Ask the person who invited you to send a new invitation.',
  signInToAccept: 'Log in to accept',
  signUpToAccept: 'Create an account',
  signedOutHint: 'Log in or create an account with this email address to accept.',
  wrongAccount: (current: string, invited: string) =>
    `You are logged in as ${current}, but this invitation is for ${invited}. Log out and sign in with ${invited} to accept it.`,
  accept: 'Accept invitation',
  accepting: 'Joining…',
} as const;
