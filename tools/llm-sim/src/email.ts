// The default brain's email template: a real MJML email built from the words of the request, the
// same request always giving the same email. Recognised by the answer schema's shape (name, subject,
// preheader, mjml), whatever its name.
import type { JsonSchema } from './json-schema';

export type EmailBrief = { brief: string; tone: string | null; audience: string | null };

const STOP_WORDS = new Set(
  (
    'a an and are as at be but by for from has have i in into is it its me my of on or our so that the ' +
    'their them they this to us we was were will with you your about write email template please make ' +
    'create an send need want should would could'
  ).split(' '),
);

/** `Brief:`, `Tone:` and `Audience:` lines when the request has them, else its whole text as the brief. */
export function briefOf(text: string): EmailBrief {
  const line = (label: string) =>
    new RegExp(`^\\s*${label}\\s*:\\s*(.+)$`, 'im').exec(text)?.[1]?.trim() ?? null;
  const brief = line('(?:Brief|Prompt)') ?? text.trim();
  return { brief, tone: line('Tone'), audience: line('Audience') };
}

export function keywordsOf(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}'-]*/gu) ?? []).filter(
    (w) => w.length > 1 && !STOP_WORDS.has(w),
  );
}

const titleCase = (words: string[]) => words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join(' ');

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
const escapeHtml = (s: string) => s.replace(/[&<>"]/g, (c) => ESCAPES[c]!);
/** Liquid markers in the brief would be read as template code: keep them as text. */
const plain = (s: string) => escapeHtml(s.replace(/\{[{%]|[%}]\}/g, (m) => m.split('').join(' ')));

/** Whether a json_schema asks for an email template: an object with name, subject, preheader and mjml. */
export function isEmailTemplateSchema(schema: JsonSchema | undefined): boolean {
  const props = schema?.properties;
  return !!props && ['name', 'subject', 'preheader', 'mjml'].every((k) => k in props);
}

export function emailTemplateFor(brief: EmailBrief): {
  name: string;
  subject: string;
  preheader: string;
  mjml: string;
} {
  const words = keywordsOf(brief.brief);
  const title = words.length > 0 ? titleCase(words.slice(0, 5)) : 'News From Us';
  const formal = /formal|professional|serious/i.test(brief.tone ?? '');
  const playful = /playful|fun|casual|excited|enthusiastic/i.test(brief.tone ?? '');
  const greeting = formal ? 'Dear' : 'Hi';
  const closing = formal ? 'Kind regards,' : playful ? 'Cheers!' : 'Best wishes,';
  const audience = brief.audience ? ` for ${brief.audience}` : '';
  const sentence = brief.brief.replace(/\s+/g, ' ').trim();
  const mjml = `<mjml>
  <mj-head>
    <mj-title>${plain(title)}</mj-title>
    <mj-attributes>
      <mj-all font-family="Helvetica, Arial, sans-serif" />
      <mj-text font-size="16px" line-height="24px" color="#1f2937" />
    </mj-attributes>
  </mj-head>
  <mj-body background-color="#f3f4f6">
    <mj-section background-color="#111827" padding="24px">
      <mj-column>
        <mj-text align="center" color="#ffffff" font-size="24px" font-weight="bold">${plain(title)}</mj-text>
      </mj-column>
    </mj-section>
    <mj-section background-color="#ffffff" padding="24px">
      <mj-column>
        <mj-text>${greeting} {{ customer.name | default: "there" }},</mj-text>
        <mj-text>${plain(sentence)}</mj-text>
        <mj-text>We put this together${plain(audience)} at {{ business.name }}${playful ? ' and we think you will love it' : ''}.</mj-text>
        <mj-button href="https://example.com/" background-color="#2563eb" color="#ffffff">${formal ? 'Learn more' : 'Take a look'}</mj-button>
        <mj-text>${closing}<br />The {{ business.name }} team</mj-text>
      </mj-column>
    </mj-section>
    <mj-section padding="12px">
      <mj-column>
        <mj-text align="center" font-size="12px" color="#6b7280">You are receiving this email from {{ business.name }}.</mj-text>
      </mj-column>
    </mj-section>
  </mj-body>
</mjml>`;
  return {
    name: `${title} email`.slice(0, 200),
    subject: (formal ? title : `${title} – just for you`).slice(0, 200),
    preheader: sentence.slice(0, 120),
    mjml,
  };
}
