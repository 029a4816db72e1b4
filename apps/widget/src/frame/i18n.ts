// The chat's words in the visitor's language: the shipped catalogues (ICU MessageFormat, compiled at
// build time by widget-messages.plugin.ts) run on @lingui/core, which formats plurals, dates and
// placeholders with the browser's Intl and carries no parser. The group's overrides come compiled
// from the server and win over the catalogue for their locale. Each locale is a chunk of its own.
import { setupI18n } from '@lingui/core';
import {
  isRtlLocale,
  pickWidgetLocale,
  type TWidgetLocale,
  type TWidgetStringKey,
} from '@titan/contracts/widget-locales';
import { createContext, useContext } from 'react';

type TCompiled = Record<string, unknown>;
/** The group's overrides by locale, then key, as the public chat info gives them. */
export type TOverrides = Record<string, TCompiled>;

const CATALOGUES: Record<TWidgetLocale, () => Promise<{ messages: TCompiled }>> = {
  en: () => import('virtual:widget-messages/en'),
  es: () => import('virtual:widget-messages/es'),
  fr: () => import('virtual:widget-messages/fr'),
  de: () => import('virtual:widget-messages/de'),
  pt: () => import('virtual:widget-messages/pt'),
  ar: () => import('virtual:widget-messages/ar'),
};

/** Named date formats the catalogues use: `{date, date, month_day}`. */
const FORMATS: Record<string, Intl.DateTimeFormatOptions> = {
  month_day: { month: 'short', day: 'numeric' },
  weekday_time: { weekday: 'long', hour: 'numeric', minute: '2-digit' },
};

export type TTranslator = {
  locale: TWidgetLocale;
  dir: 'ltr' | 'rtl';
  t(key: TWidgetStringKey, values?: Record<string, unknown>): string;
};

/** A translator over compiled messages, the group's overrides for this locale taking precedence. */
export function createTranslator(
  locale: TWidgetLocale,
  catalogue: TCompiled,
  overrides: TOverrides = {},
): TTranslator {
  const messages = { ...catalogue, ...(overrides[locale] ?? {}) };
  const i18n = setupI18n({ locale, messages: { [locale]: messages } as never });
  return {
    locale,
    dir: isRtlLocale(locale) ? 'rtl' : 'ltr',
    t: (key, values) => i18n._(key, values, { formats: FORMATS as never }),
  };
}

export async function loadTranslator(locale: TWidgetLocale, overrides?: TOverrides): Promise<TTranslator> {
  const { messages: catalogue } = await CATALOGUES[locale]();
  return createTranslator(locale, catalogue, overrides);
}

/** The visitor's locale: the host page's `lang`, the browser's languages, then the group's setting. */
export function visitorLocale(pageLang: string | null, groupLocale: string | null = null): TWidgetLocale {
  const browser = typeof navigator === 'undefined' ? [] : (navigator.languages ?? [navigator.language]);
  return pickWidgetLocale(pageLang, browser, groupLocale);
}

/** The document speaks the chat's language: `lang` and `dir` on <html> (right to left for Arabic). */
export function applyDocumentLanguage(translator: TTranslator, doc: Document = document): void {
  doc.documentElement.lang = translator.locale;
  doc.documentElement.dir = translator.dir;
}

export const I18nContext = createContext<TTranslator | null>(null);

export function useT(): TTranslator {
  const translator = useContext(I18nContext);
  if (!translator) throw new Error('useT outside I18nContext');
  return translator;
}
