// An email's HTML as the inbox shows it: sanitised once more here (the server already did, with
// sanitize-html; this keeps anything stored before that, or changed on the way, out of the page) and
// split into what the sender wrote and the quoted history their client appended. The quoted parts
// are the markers mail clients write: Gmail's .gmail_quote, Apple Mail's and Thunderbird's
// blockquote[type=cite] and .moz-cite-prefix, Outlook's #divRplyFwdMsg / #appendonsend (everything
// after it), Yahoo's .yahoo_quoted, and a trailing blockquote with its "On … wrote:" line.
import DOMPurify from 'dompurify';

const SANITIZE = {
  USE_PROFILES: { html: true },
  FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select', 'iframe'],
  // Remote images are not loaded in the inbox (they tell the sender who read it, and when).
  ALLOWED_URI_REGEXP: /^(?:https?:|mailto:|cid:|data:image\/|#)/i,
};

const QUOTE_SELECTORS = [
  '.gmail_quote',
  '.gmail_extra',
  'blockquote[type="cite"]',
  '.moz-cite-prefix',
  '.yahoo_quoted',
  '[id^="divRplyFwdMsg"]',
];
const CUT_FROM = ['#appendonsend', '[id^="divRplyFwdMsg"]'];
const WROTE_LINE = /(wrote|schrieb|a écrit|escribió|escreveu|scritto|schreef)\s*:\s*$/i;

export type TEmailHtml = { visible: string; full: string; folded: boolean };

function sanitize(html: string): string {
  const clean = DOMPurify.sanitize(html, SANITIZE);
  // Links open apart from the inbox and tell the target nothing.
  const doc = new DOMParser().parseFromString(`<body>${clean}</body>`, 'text/html');
  for (const a of Array.from(doc.querySelectorAll('a[href]'))) {
    a.setAttribute('target', '_blank');
    a.setAttribute('rel', 'noopener noreferrer nofollow');
  }
  for (const img of Array.from(doc.querySelectorAll('img'))) {
    if (/^https?:/i.test(img.getAttribute('src') ?? '')) img.removeAttribute('src');
  }
  return doc.body.innerHTML;
}

/** The sanitised HTML whole, and without its quoted history (folded when there was one to take). */
export function emailHtml(html: string): TEmailHtml {
  const full = sanitize(html);
  const doc = new DOMParser().parseFromString(`<body>${full}</body>`, 'text/html');
  let removed = false;
  for (const selector of CUT_FROM) {
    const marker = doc.body.querySelector(selector);
    if (!marker) continue;
    // Outlook: the separator and everything after it, up the tree to the body.
    let node: Element | null = marker;
    while (node && node !== doc.body) {
      while (node.nextSibling) node.nextSibling.remove();
      node = node.parentElement;
    }
    const hr = marker.previousElementSibling;
    if (hr?.tagName === 'HR') hr.remove();
    marker.remove();
    removed = true;
  }
  for (const el of Array.from(doc.body.querySelectorAll(QUOTE_SELECTORS.join(',')))) {
    if (!el.isConnected) continue;
    el.remove();
    removed = true;
  }
  // A trailing top-level blockquote (and the "On …, … wrote:" line before it).
  const last = () => {
    const children = Array.from(doc.body.children).filter((c) => (c.textContent ?? '').trim() !== '');
    return children[children.length - 1] ?? null;
  };
  let tail = last();
  while (tail?.tagName === 'BLOCKQUOTE') {
    const before = tail.previousElementSibling;
    tail.remove();
    removed = true;
    if (before && WROTE_LINE.test((before.textContent ?? '').trim())) before.remove();
    tail = last();
  }
  const visible = doc.body.innerHTML;
  // Nothing of the sender's own left: show it whole rather than an empty message.
  if (!removed || (doc.body.textContent ?? '').trim() === '') return { visible: full, full, folded: false };
  return { visible, full, folded: true };
}
