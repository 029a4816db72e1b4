// The widget's catalogues (issue 30): every shipped locale has every key, parses as ICU
// MessageFormat and uses exactly the English text's placeholders; locale choice and overrides.
import { describe, expect, it } from 'vitest';
import {
  messagePlaceholders,
  pickWidgetLocale,
  WIDGET_LOCALES,
  WIDGET_MESSAGES,
  WIDGET_STRING_KEYS,
  widgetStringProblem,
} from '../widget-strings';

describe('widget catalogues', () => {
  it.each(WIDGET_LOCALES)('%s has every key, valid ICU, the English placeholders', (locale) => {
    const messages = WIDGET_MESSAGES[locale];
    expect(Object.keys(messages).sort()).toEqual([...WIDGET_STRING_KEYS].sort());
    for (const key of WIDGET_STRING_KEYS) {
      expect(messagePlaceholders(messages[key]), `${locale}.${key}`).toEqual(
        messagePlaceholders(WIDGET_MESSAGES.en[key]),
      );
      expect(widgetStringProblem(key, messages[key]), `${locale}.${key}`).toBeNull();
    }
  });

  it('Arabic spells every plural category it uses', () => {
    expect(WIDGET_MESSAGES.ar.unread_count).toMatch(/zero \{.*one \{.*two \{.*few \{.*many \{.*other \{/);
  });
});

describe('pickWidgetLocale', () => {
  it('takes the page, then the browser in order, then the group, else English', () => {
    expect(pickWidgetLocale('es-MX', ['fr-FR'], 'de')).toBe('es');
    expect(pickWidgetLocale('ja', ['zh-CN', 'pt-BR', 'fr'], 'de')).toBe('pt');
    expect(pickWidgetLocale('', ['ja'], 'ar')).toBe('ar');
    expect(pickWidgetLocale(null, [], null)).toBe('en');
    expect(pickWidgetLocale('AR_eg', [], null)).toBe('ar');
  });
});
