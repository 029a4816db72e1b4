// User-visible strings of the sign-in, sign-up, password and verification screens.
export const AUTH_STRINGS = {
  email: 'Email',
  password: 'Password',
  firstName: 'First name',
  lastName: 'Last name',
  optional: '(optional)',
  passwordHint: 'At least 8 characters.',

  loginTitle: 'Log in to Titan',
  loginDescription: 'Welcome back. Enter your email and password.',
  loginSubmit: 'Log in',
  loginSubmitting: 'Logging in…',
  forgotPasswordLink: 'Forgot password?',
  noAccount: "Don't have an account?",
  signupLink: 'Sign up',
  or: 'or',
  continueWith: (label: string) => `Continue with ${label}`,
  redirecting: 'Redirecting…',
  resendVerification: 'Resend verification email',
  resendingVerification: 'Sending…',
  verificationResent: (email: string) => `We sent a new verification link to ${email}.`,

  signupTitle: 'Create your Titan account',
  signupDescription: 'Start engaging your customers in minutes.',
  signupSubmit: 'Sign up',
  signupSubmitting: 'Creating account…',
  haveAccount: 'Already have an account?',
  loginLink: 'Log in',
  checkInboxTitle: 'Check your inbox',
  checkInboxText: (email: string) =>
    `We sent a verification link to ${email}. Open it to activate your account, then log in.`,
  // Development only (not in the spec): shown when the server keeps mail in its outbox.
  devOutboxNote: 'This Titan has no mail server: its mail is kept in the development outbox.',
  devOutboxLink: 'Open the development outbox',

  forgotTitle: 'Reset your password',
  forgotDescription: "Enter your account's email and we will send you a link to choose a new password.",
  forgotSubmit: 'Send reset link',
  forgotSubmitting: 'Sending…',
  forgotSentTitle: 'Check your inbox',
  forgotSentText: (email: string) =>
    `If an account exists for ${email}, we sent a link to reset its password. The link works for one hour.`,
  backToLogin: 'Back to log in',

  resetTitle: 'Choose a new password',
  resetDescription: (email: string) => `For ${email}.`,
  newPassword: 'New password',
  resetSubmit: 'Set new password',
  resetSubmitting: 'Saving…',
  resetDoneTitle: 'Password changed',
  resetDoneText: 'Your password has been changed and every other session has been signed out.',
  resetInvalidTitle: 'This link is invalid or has expired',
  resetInvalidText: 'Password reset links work once and for one hour. Ask for a new one.',
  requestNewLink: 'Request a new link',

  confirmVerifyingTitle: 'Verifying your email…',
  confirmDoneTitle: 'Your email is verified',
  confirmDoneText: (email: string) => `${email} is confirmed. You can log in now.`,
  confirmFailedTitle: 'This verification link is invalid or has expired',
  confirmFailedText: 'Log in to get a new verification email, or sign up again.',

  authFlowWorking: 'Signing you in…',
  authFlowFailedTitle: 'Sign-in did not complete',
  authFlowStateMismatch:
    'This sign-in response does not match a sign-in started in this browser tab. Start again from the log in page.',
  authFlowProviderError: (detail: string) => `The identity provider answered: ${detail}`,
  authFlowMissingCode: 'The identity provider did not send a sign-in code.',
} as const;
