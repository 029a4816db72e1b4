// Interface constants of spec section 9 that components share.

/** Tooltips open after this hover delay. */
export const TOOLTIP_DELAY_MS = 300;

/** The text-fit helper's defaults: lines a title may take, and the font sizes it steps between. */
export const TEXT_FIT_DEFAULT_LINES = 2;
export const TEXT_FIT_MAX_FONT_PX = 16;
export const TEXT_FIT_MIN_FONT_PX = 12;
