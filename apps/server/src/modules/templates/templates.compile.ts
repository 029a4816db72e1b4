// Email templates as code: MJML compiled to HTML once per saved version, Liquid parsed once per
// version, then rendered per recipient with no MJML, no parse and no database. Liquid runs with
// strict variables and filters, own properties only, render/parse/memory limits and no file system
// (include, render and layout are refused when the template is parsed).
import type { TFieldErrors, TEmailTemplateFormat } from '@titan/contracts';
import { convert } from 'html-to-text';
import { Liquid, LiquidError, Tag, type Template, type TagToken, type TopLevelToken } from 'liquidjs';
import type Mjml2html from 'mjml';
import { escapeHtml } from '../../platform/html';

export type TemplateField = 'subject' | 'preheader' | 'content' | 'text_content';

export type TemplateSource = {
  subject: string;
  preheader: string;
  format: TEmailTemplateFormat;
  content: string;
  textContent: string | null;
};

/** What a saved version keeps besides its source. */
export type CompiledSource = {
  /** The HTML with its Liquid still in it (MJML compiled). */
  compiledHtml: string;
  /** A Liquid text part derived from compiledHtml; null when text_content is given or none could be. */
  compiledText: string | null;
  variables: string[];
};

/** A render that stopped: where (field, line) and why. The message reads `Line N: reason`. */
export class TemplateRenderError extends Error {
  constructor(
    readonly field: TemplateField,
    readonly line: number | null,
    readonly reason: string,
  ) {
    super(line === null ? reason : `Line ${line}: ${reason}`);
    this.name = 'TemplateRenderError';
  }
}

/** Milliseconds one render of one part may take: a runaway loop stops here, not the worker. */
export const RENDER_LIMIT_MS = 250;
/** Characters one template part may have when parsed. */
export const PARSE_LIMIT_CHARS = 1_000_000;
/** Roughly the bytes of strings and arrays one render may allocate. */
export const MEMORY_LIMIT = 20_000_000;

const FILE_TAGS = ['include', 'render', 'layout'] as const;

/** Templates cannot read files: the tags that would are refused when a template is parsed. */
class RefusedFileTag extends Tag {
  constructor(token: TagToken, remain: TopLevelToken[], liquid: Liquid) {
    super(token, remain, liquid);
    throw new Error(`tag '${token.name}' is not allowed: templates cannot read files`);
  }

  *render(): Generator<unknown, void, unknown> {
    // Never reached: the constructor refuses the tag at parse time.
  }
}

function makeEngine(escapeOutput: boolean): Liquid {
  const engine = new Liquid({
    strictVariables: true,
    strictFilters: true,
    ownPropertyOnly: true,
    // `{% if customer.nickname %}` on a missing field is false, not an error.
    lenientIf: true,
    // An in-memory file system with no files, so nothing can be read even if a tag tried.
    templates: {},
    relativeReference: false,
    cache: false,
    parseLimit: PARSE_LIMIT_CHARS,
    renderLimit: RENDER_LIMIT_MS,
    memoryLimit: MEMORY_LIMIT,
    ...(escapeOutput ? { outputEscape: 'escape' as const } : {}),
  });
  for (const name of FILE_TAGS) engine.registerTag(name, RefusedFileTag);
  return engine;
}

/** HTML parts escape every `{{ }}` output (`| raw` opts out); subject and text do not. */
const htmlEngine = makeEngine(true);
const textEngine = makeEngine(false);

const POSITION = /, line:\d+, col:\d+$/;

/** liquidjs's words, said the way the editor shows them. */
function reasonOf(err: unknown): string {
  const raw = err instanceof Error ? err.message : String(err);
  const message = raw.replace(POSITION, '').split('\n')[0]!.trim();
  let m = /^tag "(.+)" not found$/.exec(message);
  if (m) return `unknown tag '${m[1]}'`;
  m = /^undefined filter: (.+)$/.exec(message);
  if (m) return `unknown filter '${m[1]}'`;
  m = /^undefined variable: (.+)$/.exec(message);
  if (m) return `undefined variable '${m[1]}'`;
  if (/render limit exceeded/i.test(message))
    return `the template took longer than ${RENDER_LIMIT_MS} ms to render (a loop that runs too long?)`;
  if (/memory (alloc )?limit exceeded/i.test(message))
    return 'the template uses too much memory to render (a loop that runs too long?)';
  if (/parse length limit exceeded/i.test(message)) return 'the template is too long';
  return message;
}

function lineOf(err: unknown): number | null {
  const token = (err as { token?: { getPosition?: () => [number, number] } }).token;
  const pos = token?.getPosition?.();
  if (pos) return pos[0];
  const m = /, line:(\d+), col:\d+$/.exec(err instanceof Error ? err.message : '');
  return m ? Number(m[1]) : null;
}

function tokenText(err: unknown): string | null {
  const token = (err as { token?: { getText?: () => string } }).token;
  const text = token?.getText?.();
  return text && text.trim() ? text : null;
}

/** The 1-based line of the first occurrence of `needle` in `source`, or null. */
function lineIn(source: string, needle: string): number | null {
  const at = source.indexOf(needle);
  if (at < 0) return null;
  let line = 1;
  for (let i = source.indexOf('\n'); i >= 0 && i < at; i = source.indexOf('\n', i + 1)) line++;
  return line;
}

/**
 * An error of a Liquid part as `Line N: reason`. Parts rendered from compiled HTML (MJML) have
 * other line numbers than the source: the failing token is looked up in the source to name the
 * line the author wrote.
 */
function toRenderError(
  err: unknown,
  field: TemplateField,
  source?: { text: string; lineOffset: number },
): TemplateRenderError {
  if (!(err instanceof LiquidError) && !(err instanceof Error)) {
    return new TemplateRenderError(field, null, String(err));
  }
  let line = lineOf(err);
  if (source) {
    const text = tokenText(err);
    const found = text ? lineIn(source.text, text) : null;
    line = found ?? (line === null ? null : line + source.lineOffset);
  }
  return new TemplateRenderError(field, line, reasonOf(err));
}

function parse(engine: Liquid, text: string, field: TemplateField): Template[] {
  try {
    return engine.parse(text);
  } catch (err) {
    throw toRenderError(err, field);
  }
}

/** The variables a parsed template reads from outside (assigned and loop variables are its own). */
function variablesOf(engine: Liquid, templates: Template[]): string[] {
  try {
    return engine.globalFullVariablesSync(templates);
  } catch {
    return [];
  }
}

function addError(errors: TFieldErrors, field: string, message: string) {
  (errors[field] ??= []).push(message);
}

/** Text for the plain part, with the Liquid left as it is (wrapping or upper-casing would break it). */
function textOfHtml(html: string): string {
  return convert(html, {
    wordwrap: false,
    selectors: [
      { selector: 'img', format: 'skip' },
      { selector: 'a', options: { hideLinkHrefIfSameAsText: true } },
      ...['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((selector) => ({
        selector,
        options: { uppercase: false },
      })),
    ],
  }).trim();
}

type MjmlError = { line?: number; message?: string; tagName?: string };

/**
 * MJML, loaded when a version is first compiled from MJML: ~17 MB of live heap a process that only
 * renders saved versions (sending mail) never needs — and each full collection marks it again.
 */
let mjml: Promise<typeof Mjml2html> | undefined;
const loadMjml = () => (mjml ??= import('mjml').then((m) => m.default));

/** MJML to HTML, once per saved version. Includes are ignored: MJML reads no files either. */
async function compileMjml(content: string): Promise<{ html: string; errors: string[] }> {
  try {
    const mjml2html = await loadMjml();
    const result = await mjml2html(content, {
      validationLevel: 'soft',
      ignoreIncludes: true,
      keepComments: false,
    });
    const errors = ((result.errors ?? []) as MjmlError[]).map((e) =>
      e.line ? `Line ${e.line}: ${e.message ?? 'invalid MJML'}` : (e.message ?? 'invalid MJML'),
    );
    return { html: result.html, errors };
  } catch (err) {
    const detail = err instanceof Error ? err.message : String(err);
    return { html: '', errors: [`${MJML_UNPARSABLE} (${detail})`] };
  }
}

const LIQUID_MARKUP = /\{%-?[\s\S]*?-?%\}|\{\{-?[\s\S]*?-?\}\}/g;

const MJML_TAG = /<(\/?)(mj-[\w-]+|mjml)\b[^>]*>/g;
/** Components whose children are components: text directly inside them is dropped. */
const MJML_CONTAINERS = new Set([
  'mjml',
  'mj-body',
  'mj-head',
  'mj-section',
  'mj-column',
  'mj-wrapper',
  'mj-group',
  'mj-hero',
  'mj-attributes',
  'mj-navbar',
  'mj-social',
  'mj-accordion',
  'mj-carousel',
]);

/** Whether the markup at `index` sits directly in a container or after a closing tag (a sibling). */
function betweenComponents(source: string, index: number): boolean {
  let last: RegExpExecArray | null = null;
  for (const m of source.slice(0, index).matchAll(MJML_TAG)) last = m;
  if (!last) return true;
  return last[1] === '/' || MJML_CONTAINERS.has(last[2]!);
}

const count = (text: string, needle: string) => text.split(needle).length - 1;

/**
 * MJML silently drops text between components, Liquid included: `{% if %}` around an <mj-text>
 * would vanish and the block would always show. Each tag or output of the source must still be in
 * the compiled HTML as often; the missing ones are errors at their line (those placed between
 * components first, as those are the ones MJML drops).
 */
function droppedLiquid(source: string, compiled: string): string[] {
  const occurrences = new Map<string, number[]>();
  for (const m of source.matchAll(LIQUID_MARKUP)) {
    occurrences.set(m[0], [...(occurrences.get(m[0]) ?? []), m.index]);
  }
  const dropped: { index: number; text: string }[] = [];
  for (const [text, at] of occurrences) {
    const missing = at.length - count(compiled, text);
    if (missing <= 0) continue;
    const ranked = [
      ...at.filter((i) => betweenComponents(source, i)),
      ...at.filter((i) => !betweenComponents(source, i)),
    ];
    for (const index of ranked.slice(0, missing)) dropped.push({ index, text });
  }
  return dropped
    .sort((a, b) => a.index - b.index)
    .map(({ index, text }) => {
      const line = source.slice(0, index).split('\n').length;
      const shown = text.length > 60 ? `${text.slice(0, 57)}...` : text;
      return `Line ${line}: MJML drops Liquid placed between components ('${shown}'): put it inside <mj-raw> or a text component`;
    });
}

const MJML_UNPARSABLE =
  'The MJML could not be parsed: check that it is one <mjml> document with matching tags';

/**
 * Checks and compiles a source: Liquid parsed (lines as written), MJML compiled (any validation
 * error refuses the save: the author sees every problem with its line), the compiled HTML parsed
 * again, and the text part derived. Answers the field errors, or what the version keeps.
 */
export async function compileSource(
  src: TemplateSource,
): Promise<{ ok: true; compiled: CompiledSource } | { ok: false; errors: TFieldErrors }> {
  const errors: TFieldErrors = {};
  const variables = new Set<string>();
  const parts: [TemplateField, string, Liquid][] = [
    ['subject', src.subject, textEngine],
    ['preheader', src.preheader, textEngine],
    ['content', src.content, htmlEngine],
    ['text_content', src.textContent ?? '', textEngine],
  ];
  for (const [field, text, engine] of parts) {
    if (!text) continue;
    try {
      for (const v of variablesOf(engine, parse(engine, text, field))) variables.add(v);
    } catch (err) {
      if (!(err instanceof TemplateRenderError)) throw err;
      addError(errors, field, err.message);
    }
  }
  if (errors.content) return { ok: false, errors };

  let compiledHtml = src.content;
  if (src.format === 'mjml') {
    const mjml = await compileMjml(src.content);
    for (const message of mjml.errors) addError(errors, 'content', message);
    compiledHtml = mjml.html;
  }
  if (src.format === 'mjml' && !errors.content) {
    for (const message of droppedLiquid(src.content, compiledHtml)) addError(errors, 'content', message);
  }
  if (!errors.content) {
    try {
      parse(htmlEngine, compiledHtml, 'content');
    } catch (err) {
      // MJML moved Liquid somewhere it no longer parses (a tag split across components).
      const e = toRenderError(err, 'content', { text: src.content, lineOffset: 0 });
      addError(errors, 'content', `${e.message} (Liquid tags between MJML components must sit in <mj-raw>)`);
    }
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };

  let compiledText: string | null = null;
  if (!src.textContent) {
    const text = textOfHtml(compiledHtml);
    try {
      textEngine.parse(text);
      compiledText = text;
    } catch {
      // The derived text broke a Liquid tag apart: the text is derived from each rendered HTML.
      compiledText = null;
    }
  }
  return { ok: true, compiled: { compiledHtml, compiledText, variables: [...variables].sort() } };
}

/** One saved version, ready to render: every Liquid part parsed once. */
export type CompiledTemplate = {
  id: number;
  businessId: number;
  version: number;
  name: string;
  format: TEmailTemplateFormat;
  variables: string[];
  /** The source of the content, to name lines of render errors as the author wrote them. */
  source: string;
  subject: Template[];
  preheader: Template[] | null;
  /** The compiled HTML up to and including `<body …>`, and the rest (the preheader goes between). */
  htmlHead: Template[];
  htmlBody: Template[];
  bodyLineOffset: number;
  /** Liquid for the text part: text_content, the text derived when saved, or null (derive per render). */
  text: Template[] | null;
  textField: TemplateField;
};

export type CompiledVersion = {
  id: number;
  businessId: number;
  version: number;
  name: string;
  subject: string;
  preheader: string;
  format: TEmailTemplateFormat;
  content: string;
  textContent: string | null;
  variables: string[];
  compiledHtml: string;
  compiledText: string | null;
};

const BODY_OPEN = /<body\b[^>]*>/i;

/** Parses a saved version's parts. Throws TemplateRenderError if a part no longer parses. */
export function prepareCompiled(v: CompiledVersion): CompiledTemplate {
  const match = BODY_OPEN.exec(v.compiledHtml);
  const cut = match ? match.index + match[0].length : 0;
  const head = v.compiledHtml.slice(0, cut);
  const textSource = v.textContent ? v.textContent : v.compiledText;
  return {
    id: v.id,
    businessId: v.businessId,
    version: v.version,
    name: v.name,
    format: v.format,
    variables: v.variables,
    source: v.content,
    subject: parse(textEngine, v.subject, 'subject'),
    preheader: v.preheader ? parse(textEngine, v.preheader, 'preheader') : null,
    htmlHead: parse(htmlEngine, head, 'content'),
    htmlBody: parse(htmlEngine, v.compiledHtml.slice(cut), 'content'),
    bodyLineOffset: head.split('\n').length - 1,
    text: textSource ? parse(textEngine, textSource, v.textContent ? 'text_content' : 'content') : null,
    textField: v.textContent ? 'text_content' : 'content',
  };
}

/** The preview text mail clients show after the subject, hidden in the body. */
function preheaderHtml(text: string): string {
  return (
    '<div style="display:none;font-size:1px;line-height:1px;max-height:0;max-width:0;opacity:0;' +
    `overflow:hidden;mso-hide:all;">${escapeHtml(text)}</div>`
  );
}

function renderPart(
  engine: Liquid,
  templates: Template[],
  scope: Record<string, unknown>,
  field: TemplateField,
  source?: { text: string; lineOffset: number },
): string {
  try {
    return engine.renderSync(templates, scope) as string;
  } catch (err) {
    throw toRenderError(err, field, source);
  }
}

/**
 * One recipient's mail from a compiled version: Liquid renders only (no MJML, no parsing, no
 * database). Throws TemplateRenderError naming the line and the reason (a variable the scope
 * lacks under strict variables, a render limit…).
 */
export function renderCompiled(
  t: CompiledTemplate,
  variables: Record<string, unknown>,
): { subject: string; html: string; text: string } {
  const subject = renderPart(textEngine, t.subject, variables, 'subject')
    .replace(/[\r\n]+/g, ' ')
    .trim();
  const preheader = t.preheader ? renderPart(textEngine, t.preheader, variables, 'preheader').trim() : '';
  const head = renderPart(htmlEngine, t.htmlHead, variables, 'content', { text: t.source, lineOffset: 0 });
  const body = renderPart(htmlEngine, t.htmlBody, variables, 'content', {
    text: t.source,
    lineOffset: t.bodyLineOffset,
  });
  const html = preheader ? `${head}${preheaderHtml(preheader)}${body}` : `${head}${body}`;
  const text = t.text
    ? renderPart(textEngine, t.text, variables, t.textField).trim()
    : textOfHtml(html.replace(/<div style="display:none;[^>]*>[^<]*<\/div>/, ''));
  return { subject, html, text };
}
