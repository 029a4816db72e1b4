// User-visible strings of the generic screens (spec section 2), verbatim where the spec gives them.
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
