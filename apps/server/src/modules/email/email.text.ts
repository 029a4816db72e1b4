// The plain text of an HTML mail (html-to-text), shared by outbound mail (every mail has a text
// part) and inbound parsing (email.inbound-parse.ts, which runs in the inbound threads too): kept
// apart from email.service so a thread loads only what parsing needs.
import { compile } from 'html-to-text';

/** html-to-text compiled once (its options are costly to prepare for every mail). */
const htmlToText = compile({
  wordwrap: 100,
  selectors: [
    { selector: 'a', options: { hideLinkHrefIfSameAsText: true, linkBrackets: ['<', '>'] } },
    { selector: 'img', format: 'skip' },
  ],
});

/** The last HTML converted: a bulk send of one body converts it once. */
let lastText: { html: string; text: string } | null = null;

/** The plain-text part of an HTML mail (every mail has one). */
export function textOf(html: string): string {
  if (lastText?.html === html) return lastText.text;
  const text = htmlToText(html);
  lastText = { html, text };
  return text;
}
