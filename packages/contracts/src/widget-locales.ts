// The widget's languages (issue 30 "The widget in the visitor's language"): which locales ship, which
// are written right to left, and how a visitor's locale is chosen. This file imports nothing at run
// time, so the widget reads it (`@titan/contracts/widget-locales`) without bundling zod; the message
// catalogues themselves are `widget-messages/<locale>.json`, ICU MessageFormat, one key set.
import type en from './widget-messages/en.json';

export const WIDGET_LOCALES = ['en', 'es', 'fr', 'de', 'pt', 'ar'] as const;
export type TWidgetLocale = (typeof WIDGET_LOCALES)[number];
export const DEFAULT_WIDGET_LOCALE: TWidgetLocale = 'en';

/** Locales written right to left: the widget lays itself out with `dir="rtl"`. */
export const RTL_WIDGET_LOCALES: readonly TWidgetLocale[] = ['ar'];

/** Each locale's name in its own language, for pickers. */
export const WIDGET_LOCALE_NAMES: Record<TWidgetLocale, string> = {
  en: 'English',
  es: 'Español',
  fr: 'Français',
  de: 'Deutsch',
  pt: 'Português',
  ar: 'العربية',
};

/** Every text of the widget, by key (the English catalogue holds them all; every other the same). */
export type TWidgetStringKey = keyof typeof en;

/** One override, at most this long. */
export const WIDGET_STRING_MAX = 500;

/** A shipped locale for a language tag (`es-MX` → `es`, `PT_br` → `pt`), or null. */
export function matchWidgetLocale(tag: string | null | undefined): TWidgetLocale | null {
  if (!tag) return null;
  const language = tag.trim().toLowerCase().split(/[-_]/)[0] ?? '';
  return (WIDGET_LOCALES as readonly string[]).includes(language) ? (language as TWidgetLocale) : null;
}

/**
 * The visitor's locale: the first shipped one among the page's `lang`, the browser's languages in
 * their order, then the chat group's setting; English when none is shipped.
 */
export function pickWidgetLocale(
  pageLang: string | null | undefined,
  browserLanguages: readonly string[],
  groupLocale: string | null | undefined,
): TWidgetLocale {
  for (const tag of [pageLang, ...browserLanguages, groupLocale]) {
    const locale = matchWidgetLocale(tag);
    if (locale) return locale;
  }
  return DEFAULT_WIDGET_LOCALE;
}

export const isRtlLocale = (locale: TWidgetLocale): boolean => RTL_WIDGET_LOCALES.includes(locale);
