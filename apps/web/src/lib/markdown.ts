// Markdown as people write it in articles (CommonMark + GitHub tables and lists, via marked),
// sanitised with DOMPurify before it reaches the page: no scripts, event handlers or javascript:
// links, whoever wrote the text. Links open in a new tab and tell the target nothing.
import DOMPurify from 'dompurify';
import { marked } from 'marked';

DOMPurify.addHook('afterSanitizeAttributes', (node) => {
  // A code block scrolls sideways on a phone: keyboard users must be able to reach it.
  if (node.tagName === 'PRE') node.setAttribute('tabindex', '0');
  if (node.tagName === 'A' && node.getAttribute('href')) {
    node.setAttribute('target', '_blank');
    node.setAttribute('rel', 'noopener noreferrer nofollow');
  }
});

/** Markdown → HTML safe to put in the page. */
export function markdownToSafeHtml(source: string): string {
  const html = marked.parse(source, { async: false, gfm: true, breaks: false });
  return DOMPurify.sanitize(html, { USE_PROFILES: { html: true }, FORBID_TAGS: ['style', 'form', 'input'] });
}
