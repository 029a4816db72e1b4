// The editor's helpers: a starter template, the variables a source reads (for the sample values
// panel, before the server has listed them), and sample values as the nested object Liquid reads.
import type { TEmailTemplateFormat } from '@titan/contracts';

export const STARTER_MJML = `<mjml>
  <mj-body background-color="#f4f4f5">
    <mj-section background-color="#ffffff" padding="24px">
      <mj-column>
        <mj-text font-size="20px" font-weight="600">Hello {{ customer.name | default: "there" }},</mj-text>
        <mj-text>Thanks for being with {{ business.name }}.</mj-text>
        <mj-button href="https://example.com">Visit us</mj-button>
      </mj-column>
    </mj-section>
  </mj-body>
</mjml>
`;

export const STARTER_HTML = `<!doctype html>
<html>
  <body>
    <p>Hello {{ customer.name | default: "there" }},</p>
    <p>Thanks for being with {{ business.name }}.</p>
  </body>
</html>
`;

export const VISUAL_PROBLEMS = {
  notMjml: 'The Visual view opens one <mjml> document: fix the source in the code view first.',
  liquidTags:
    'The Visual view cannot keep Liquid tags such as {% if %} or {% for %} in place: this template stays in the code view.',
} as const;

/**
 * Why an MJML source cannot be opened in the visual editor, or null when it can. The blocks keep
 * {{ outputs }} in text, but {% tags %} between elements would be moved or dropped.
 */
export function visualProblemOf(format: TEmailTemplateFormat, content: string): string | null {
  if (format !== 'mjml') return null;
  if (!/^\s*<mjml[\s>]/.test(content) || !/<\/mjml>\s*$/.test(content)) return VISUAL_PROBLEMS.notMjml;
  if (/\{%/.test(content)) return VISUAL_PROBLEMS.liquidTags;
  return null;
}

export const starterFor = (format: TEmailTemplateFormat) => (format === 'mjml' ? STARTER_MJML : STARTER_HTML);

const KEYWORDS = new Set([
  'true',
  'false',
  'nil',
  'null',
  'empty',
  'blank',
  'and',
  'or',
  'contains',
  'in',
  'forloop',
]);
const OUTPUT = /\{\{-?\s*([A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*)*)/g;
const IF_TAG = /\{%-?\s*(?:if|elsif|unless|case)\s+([A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*)*)/g;
const FOR_TAG = /\{%-?\s*for\s+([A-Za-z_]\w*)\s+in\s+([A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*)*)/g;
const ASSIGN_TAG = /\{%-?\s*(?:assign|capture)\s+([A-Za-z_]\w*)/g;

/**
 * The variables a Liquid source reads from outside, as dotted paths: an approximation of the
 * server's list for unsaved edits (loop and assigned variables are left out).
 */
export function variablesIn(...sources: string[]): string[] {
  const found = new Set<string>();
  const local = new Set<string>();
  for (const source of sources) {
    for (const m of source.matchAll(ASSIGN_TAG)) local.add(m[1]!);
    for (const m of source.matchAll(FOR_TAG)) {
      local.add(m[1]!);
      found.add(m[2]!);
    }
  }
  for (const source of sources) {
    for (const re of [OUTPUT, IF_TAG]) {
      for (const m of source.matchAll(re)) {
        const path = m[1]!;
        const root = path.split('.')[0]!;
        if (!KEYWORDS.has(root) && !local.has(root)) found.add(path);
      }
    }
  }
  // A path whose longer form is also read (customer and customer.name) keeps the longer one only.
  const all = [...found];
  return all.filter((p) => !all.some((q) => q.startsWith(`${p}.`))).sort();
}

const SAMPLES: Record<string, string> = {
  'customer.name': 'Ada Lovelace',
  'customer.email': 'ada@example.com',
  'customer.phone': '+1 555 0100',
};

export function sampleValueFor(path: string): string {
  return SAMPLES[path] ?? '';
}

/**
 * Sample values by dotted path as the nested object templates read ({customer: {name}}).
 * business.* is the server's (the business's own name), so it is left out.
 */
export function nestVariables(values: Record<string, string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [path, value] of Object.entries(values)) {
    const parts = path.split('.');
    if (parts[0] === 'business') continue;
    let node = out;
    parts.slice(0, -1).forEach((part) => {
      const next = node[part];
      node[part] = next && typeof next === 'object' ? next : {};
      node = node[part] as Record<string, unknown>;
    });
    node[parts[parts.length - 1]!] = value;
  }
  return out;
}
