// A spam score for inbound mail (issue 30), beyond the authentication results: each rule below adds
// its points and says why; a mail scoring SPAM_THRESHOLD or more is spam. The rules are the signals
// SpamAssassin-style filters weigh most for mail addressed to a support inbox — forged or failed
// authentication, a display name showing another address, links that show one address and go to
// another, executable attachments, and the phrases phishing uses — kept small, documented
// (docs/design/channel-conversations.md) and tested one by one (email-spam.test.ts). The score
// and the reasons are kept on the message; the conversation is marked as its latest mail is.
import type { ParsedMail } from 'mailparser';
import { lazy } from '../../platform/lazy';

/** linkedom (~5 MB of heap) only in a process that scores an HTML mail. */
const linkedom = lazy(() => import('linkedom'));

export const SPAM_THRESHOLD = 5;

export type AuthResults = { spf: string; dkim: string; dmarc: string };
export type SpamVerdict = { score: number; spam: boolean; reasons: string[] };

/** A mailbox of a From or Reply-To header. */
type SpamMailbox = { address?: string; name?: string };

/** What the score reads of a mail (inbound parsing builds it from postal-mime's answer). */
export type SpamInput = {
  subject?: string;
  /** The HTML part, when the mail has one. */
  html?: string | false;
  text?: string;
  messageId?: string;
  from?: { value: SpamMailbox[] };
  replyTo?: { value: SpamMailbox[] };
  attachments: { filename?: string | null }[];
  /** Whether the raw mail carried a Date header (a parser may fill a date in when it is missing). */
  hasDateHeader: boolean;
};

export const SPAM_RULES = {
  dmarcFail: { points: 5, reason: 'DMARC failed' },
  spfFailNoDkim: { points: 5, reason: 'SPF failed and no DKIM signature passed' },
  spfSoftfail: { points: 1, reason: 'SPF soft-failed' },
  dkimBroken: { points: 2, reason: 'The DKIM signature does not verify' },
  unauthenticated: { points: 1, reason: 'Neither SPF nor DKIM passed' },
  nameShowsOtherAddress: { points: 3, reason: 'The sender’s name shows another address' },
  replyToElsewhere: { points: 1, reason: 'Replies go to another domain' },
  deceptiveLink: { points: 3, reason: 'A link shows one address and goes to another' },
  ipLink: { points: 2, reason: 'A link goes to a bare IP address' },
  executable: { points: 5, reason: 'An executable attachment' },
  shoutedSubject: { points: 1, reason: 'The subject is in capitals' },
  noMessageId: { points: 1, reason: 'No Message-ID' },
  noDate: { points: 1, reason: 'No Date' },
  phishingPhrase: { points: 2, reason: 'Words phishing uses' },
} as const;

/** Phrases (lower case) of credential phishing and advance-fee fraud; at most two count. */
const PHRASES = [
  'verify your account',
  'confirm your password',
  'your account will be suspended',
  'your account has been suspended',
  'unusual sign-in activity',
  'urgent action required',
  'wire transfer',
  'gift card',
  'you have won',
  'lottery',
  'claim your prize',
  'bitcoin wallet',
  'password will expire',
];

const EXECUTABLE = /\.(exe|scr|com|bat|cmd|pif|vbs|vbe|js|jse|wsf|hta|jar|msi|ps1|lnk|iso|img)$/i;

const domainOf = (address: string | undefined) =>
  address?.slice(address.lastIndexOf('@') + 1).toLowerCase() ?? '';

/** `mail.example.com` and `example.com` are one organisation here (no public suffix list needed for this). */
const related = (a: string, b: string) => a === b || a.endsWith(`.${b}`) || b.endsWith(`.${a}`);

const hostOf = (url: string): string | null => {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.hostname.toLowerCase() : null;
  } catch {
    return null;
  }
};

/** What the score reads of a mail as mailparser parsed it (the rules' tests build mail so). */
export function spamInputOf(mail: ParsedMail): SpamInput {
  return {
    subject: mail.subject,
    html: mail.html,
    text: mail.text,
    messageId: mail.messageId,
    from: Array.isArray(mail.from) ? mail.from[0] : mail.from,
    replyTo: Array.isArray(mail.replyTo) ? mail.replyTo[0] : mail.replyTo,
    attachments: mail.attachments,
    hasDateHeader: mail.headers.has('date'),
  };
}

/** A link's text that itself reads as an address (`www.bank.com`, `https://bank.com/login`). */
const shownHost = (text: string): string | null => {
  const t = text.trim();
  if (!/^(https?:\/\/)?([a-z0-9-]+\.)+[a-z]{2,}(\/\S*)?$/i.test(t)) return null;
  return hostOf(/^https?:\/\//i.test(t) ? t : `https://${t}`);
};

export async function spamScore(mail: SpamInput, auth: AuthResults): Promise<SpamVerdict> {
  const hits: { points: number; reason: string }[] = [];
  const add = (rule: { points: number; reason: string }, detail?: string) =>
    hits.push({ points: rule.points, reason: detail ? `${rule.reason} (${detail})` : rule.reason });

  if (auth.dmarc === 'fail') add(SPAM_RULES.dmarcFail);
  else if (auth.spf === 'fail' && auth.dkim !== 'pass') add(SPAM_RULES.spfFailNoDkim);
  if (auth.spf === 'softfail') add(SPAM_RULES.spfSoftfail);
  if (auth.dkim === 'fail' || auth.dkim === 'neutral') add(SPAM_RULES.dkimBroken);
  if (auth.spf !== 'pass' && auth.dkim !== 'pass' && auth.dmarc !== 'fail') add(SPAM_RULES.unauthenticated);

  const sender = mail.from?.value[0];
  const senderDomain = domainOf(sender?.address);
  const shown = /[\w.+-]+@([\w-]+\.)+[\w-]+/.exec(sender?.name ?? '')?.[0];
  if (shown && senderDomain && !related(domainOf(shown), senderDomain))
    add(SPAM_RULES.nameShowsOtherAddress, shown);
  const replyTo = domainOf(mail.replyTo?.value[0]?.address);
  if (replyTo && senderDomain && !related(replyTo, senderDomain)) add(SPAM_RULES.replyToElsewhere, replyTo);

  if (typeof mail.html === 'string' && mail.html) {
    const { document } = (await linkedom()).parseHTML(`<html><body>${mail.html}</body></html>`);
    let deceptive: string | null = null;
    let ip: string | null = null;
    const anchors = Array.from(document.querySelectorAll('a[href]')) as unknown as {
      getAttribute(name: string): string | null;
      textContent: string | null;
    }[];
    for (const a of anchors) {
      const target = hostOf(a.getAttribute('href') ?? '');
      if (!target) continue;
      const showing = shownHost(a.textContent ?? '');
      if (!deceptive && showing && !related(showing, target)) deceptive = `${showing} → ${target}`;
      if (!ip && /^\d{1,3}(\.\d{1,3}){3}$|^\[/.test(target)) ip = target;
    }
    if (deceptive) add(SPAM_RULES.deceptiveLink, deceptive);
    if (ip) add(SPAM_RULES.ipLink, ip);
  }

  const executable = mail.attachments.find((a) => a.filename && EXECUTABLE.test(a.filename));
  if (executable) add(SPAM_RULES.executable, executable.filename ?? undefined);

  const letters = (mail.subject ?? '').replace(/[^\p{L}]/gu, '');
  if (letters.length >= 8 && letters === letters.toUpperCase() && letters !== letters.toLowerCase())
    add(SPAM_RULES.shoutedSubject);
  if (!mail.messageId) add(SPAM_RULES.noMessageId);
  if (!mail.hasDateHeader) add(SPAM_RULES.noDate);

  const haystack = `${mail.subject ?? ''}\n${mail.text ?? ''}`.toLowerCase();
  for (const phrase of PHRASES.filter((p) => haystack.includes(p)).slice(0, 2))
    add(SPAM_RULES.phishingPhrase, `“${phrase}”`);

  const score = hits.reduce((sum, h) => sum + h.points, 0);
  return { score, spam: score >= SPAM_THRESHOLD, reasons: hits.map((h) => h.reason) };
}
