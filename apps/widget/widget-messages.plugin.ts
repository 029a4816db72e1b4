// Compiles the widget's message catalogues at build time (packages/contracts/src/widget-messages,
// ICU MessageFormat) for @lingui/core, whose runtime carries no parser: `virtual:widget-messages/es`
// is the Spanish catalogue as compiled messages. Each locale is its own chunk; a visitor loads one.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { compileMessage } from '@lingui/message-utils/compileMessage';
import type { Plugin } from 'vite';

const PREFIX = 'virtual:widget-messages/';
const RESOLVED = '\0widget-messages:';
const dir = fileURLToPath(new URL('../../packages/contracts/src/widget-messages/', import.meta.url));

/** A catalogue compiled: plain text stays a string, ICU arguments become lingui's token arrays. */
export function compileCatalogue(source: Record<string, string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, text] of Object.entries(source)) {
    const tokens = compileMessage(text);
    out[key] =
      Array.isArray(tokens) && tokens.length === 1 && typeof tokens[0] === 'string' ? tokens[0] : tokens;
  }
  return out;
}

export function widgetMessages(): Plugin {
  return {
    name: 'titan-widget-messages',
    enforce: 'pre',
    resolveId(id) {
      return id.startsWith(PREFIX) ? RESOLVED + id.slice(PREFIX.length) : null;
    },
    load(id) {
      if (!id.startsWith(RESOLVED)) return null;
      const locale = id.slice(RESOLVED.length);
      if (!/^[a-z]{2}$/.test(locale)) throw new Error(`widget messages: bad locale ${locale}`);
      const file = `${dir}${locale}.json`;
      this.addWatchFile(file);
      const source = JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
      return `export const messages = ${JSON.stringify(compileCatalogue(source))};`;
    },
  };
}
