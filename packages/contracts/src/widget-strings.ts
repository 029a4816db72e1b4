// A chat group's language settings (next-api.md "Every channel in the inbox", widget language): its
// `locale` and per-locale text overrides `strings: {locale: {key: text}}`. Each override is ICU
// MessageFormat, checked here: the key must be one of the widget's, the text must parse, and it may
// use only the placeholders the widget fills in for that key (`{name}` for "typing", …).
import { parse, type Token } from '@messageformat/parser';
import { z } from 'zod';
import ar from './widget-messages/ar.json';
import de from './widget-messages/de.json';
import en from './widget-messages/en.json';
import es from './widget-messages/es.json';
import fr from './widget-messages/fr.json';
import pt from './widget-messages/pt.json';
import {
  WIDGET_LOCALES,
  WIDGET_STRING_MAX,
  type TWidgetLocale,
  type TWidgetStringKey,
} from './widget-locales';

export * from './widget-locales';

/** The shipped catalogues (ICU MessageFormat source), as the web's override editor shows them. */
export const WIDGET_MESSAGES: Record<TWidgetLocale, Record<TWidgetStringKey, string>> = {
  en,
  es,
  fr,
  de,
  pt,
  ar,
};

export const WIDGET_STRING_KEYS = Object.keys(en) as TWidgetStringKey[];

export const WIDGET_STRING_ERRORS = {
  unknownLocale: `Use one of ${WIDGET_LOCALES.join(', ')}.`,
  unknownKey: 'This is not a text of the widget.',
  empty: 'Enter the text, or remove the override.',
  tooLong: `Use at most ${WIDGET_STRING_MAX} characters.`,
  badSyntax: 'This is not valid ICU message format (check the braces).',
  unknownPlaceholder: (names: string[], allowed: string[]) =>
    `Unknown placeholder ${names.map((n) => `{${n}}`).join(', ')}; ` +
    (allowed.length
      ? `this text may use ${allowed.map((n) => `{${n}}`).join(', ')}.`
      : 'this text has none.'),
} as const;

/** The placeholders a message uses (plural, select, date… arguments included). */
export function messagePlaceholders(message: string): string[] {
  const names = new Set<string>();
  const walk = (tokens: Token[]) => {
    for (const token of tokens) {
      if (token.type === 'argument' || token.type === 'function') names.add(token.arg);
      if (token.type === 'function' && token.param) walk(token.param);
      if (token.type === 'plural' || token.type === 'select' || token.type === 'selectordinal') {
        names.add(token.arg);
        for (const c of token.cases) walk(c.tokens);
      }
    }
  };
  walk(parse(message));
  return [...names].sort();
}

const allowedPlaceholders = new Map<string, string[]>(
  WIDGET_STRING_KEYS.map((key) => [key, messagePlaceholders(en[key])]),
);

/** Why an override cannot be used, or null when it can. */
export function widgetStringProblem(key: string, text: string): string | null {
  const allowed = allowedPlaceholders.get(key);
  if (!allowed) return WIDGET_STRING_ERRORS.unknownKey;
  if (!text.trim()) return WIDGET_STRING_ERRORS.empty;
  if (text.length > WIDGET_STRING_MAX) return WIDGET_STRING_ERRORS.tooLong;
  let used: string[];
  try {
    used = messagePlaceholders(text);
  } catch {
    return WIDGET_STRING_ERRORS.badSyntax;
  }
  const unknown = used.filter((name) => !allowed.includes(name));
  return unknown.length ? WIDGET_STRING_ERRORS.unknownPlaceholder(unknown, allowed) : null;
}

export const ZWidgetLocale = z.enum(WIDGET_LOCALES, { message: WIDGET_STRING_ERRORS.unknownLocale });

/** Overrides by locale, then key; every problem reported at `strings.<locale>.<key>`. */
export const ZWidgetStrings = z
  .record(z.string(), z.record(z.string(), z.string()))
  .superRefine((value, ctx) => {
    for (const [locale, texts] of Object.entries(value)) {
      if (!(WIDGET_LOCALES as readonly string[]).includes(locale)) {
        ctx.addIssue({ code: 'custom', path: [locale], message: WIDGET_STRING_ERRORS.unknownLocale });
        continue;
      }
      for (const [key, text] of Object.entries(texts)) {
        const problem = widgetStringProblem(key, text);
        if (problem) ctx.addIssue({ code: 'custom', path: [locale, key], message: problem });
      }
    }
  })
  .transform((value) => {
    // Trimmed, and locales left without an override dropped, so equal settings store equally.
    const out: Partial<Record<TWidgetLocale, Partial<Record<TWidgetStringKey, string>>>> = {};
    for (const [locale, texts] of Object.entries(value)) {
      const kept = Object.entries(texts).map(([k, t]) => [k, t.trim()] as const);
      if (kept.length) out[locale as TWidgetLocale] = Object.fromEntries(kept);
    }
    return out;
  });
export type TWidgetStrings = z.output<typeof ZWidgetStrings>;
