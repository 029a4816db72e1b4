// Bounces written for people only, with no RFC 3464 delivery-status part: what qmail, classic Exim,
// older Gmail and Exchange 2003 send. Each names the failed recipient in its own layout, followed by
// the remote server's reply or the system's own words (often with an enhanced status code, as
// `#5.1.1` or `(#5.2.2)`); this reads the recipient and those words, and whether the system says
// the failure is permanent or temporary. The codes, classified by email.bounces.ts, decide.

export type TextBounce = {
  /** Which layout was recognised (for the send's event). */
  format: 'qmail' | 'exim' | 'gmail' | 'exchange';
  recipient: string;
  /** The SMTP reply or the system's explanation, on one line. */
  diagnostic: string | null;
  /** What the system says: permanent (given up) or temporary (still trying). */
  permanent: boolean;
};

const ADDRESS = /<?([^\s<>@"]+@[^\s<>@"]+\.[^\s<>@".]+)>?/;
const oneLine = (lines: string[]) =>
  lines
    .map((l) => l.trim())
    .filter(Boolean)
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim() || null;

/** The lines after the first one matching `start`, up to `end` (exclusive). */
function section(lines: string[], start: RegExp, end: RegExp): string[] | null {
  const i = lines.findIndex((l) => start.test(l));
  if (i === -1) return null;
  const out: string[] = [];
  for (const line of lines.slice(i + 1)) {
    if (end.test(line)) break;
    out.push(line);
  }
  return out;
}

/**
 * qmail-send: `<addr>:` on a line of its own, then the explanation (a remote server's reply after
 * "Remote host said:"), blocks separated by blank lines, before "--- Below this line is a copy".
 */
function qmail(lines: string[]): TextBounce | null {
  if (!lines.some((l) => /^Hi\. This is the qmail-send program/i.test(l))) return null;
  const body = section(lines, /^Hi\. This is the qmail-send program/i, /^--- /) ?? [];
  const permanent = !/this is a temporary error/i.test(body.join(' '));
  const at = body.findIndex((l) => /^<[^>]+@[^>]+>:\s*$/.test(l.trim()));
  if (at === -1) return null;
  const recipient = ADDRESS.exec(body[at]!)![1]!;
  const block: string[] = [];
  for (const line of body.slice(at + 1)) {
    if (line.trim() === '' || /^<[^>]+@[^>]+>:\s*$/.test(line.trim())) break;
    block.push(line);
  }
  const said = block.findIndex((l) => /Remote host said:/i.test(l));
  const words =
    said === -1 ? block : [block[said]!.replace(/^.*Remote host said:\s*/i, ''), ...block.slice(said + 1)];
  return {
    format: 'qmail',
    recipient,
    diagnostic: oneLine(words.filter((l) => !/^Giving up on /i.test(l.trim()))),
    permanent,
  };
}

/**
 * Exim: "The following address(es) failed:", the address indented, then the reason indented deeper
 * ("SMTP error from remote mail server after RCPT TO:<…>: host … [ip]: 550 …").
 */
function exim(lines: string[]): TextBounce | null {
  if (!lines.some((l) => /^This message was created automatically by mail delivery software/i.test(l)))
    return null;
  const text = lines.join('\n');
  const permanent = !/(has not yet been delivered|temporary error|delay)/i.test(
    section(lines, /^This message was created/i, /^-{4,}/)?.join(' ') ?? '',
  );
  const failed =
    section(lines, /following address(?:\(es\))? failed:|not yet been delivered (?:is|are):/i, /^-{4,}/) ??
    [];
  const at = failed.findIndex((l) => /^\s+\S+@\S+/.test(l));
  if (at === -1) return null;
  const recipient = ADDRESS.exec(failed[at]!)?.[1];
  if (!recipient) return null;
  const reason: string[] = [];
  for (const line of failed.slice(at + 1)) {
    if (line.trim() === '') break;
    reason.push(line);
  }
  // "… after RCPT TO:<x>: host mx [ip]: 550 5.1.1 …": the server's reply is what follows the host.
  const joined = oneLine(reason);
  const reply = joined ? /(?:host \S+ \[[^\]]+\]:\s*)?([245]\d\d[ -].*)$/.exec(joined)?.[1] : null;
  return {
    format: 'exim',
    recipient,
    diagnostic: reply ?? joined ?? (/(\d{3} [^\n]+)/.exec(text)?.[1] || null),
    permanent,
  };
}

/**
 * Gmail before it sent RFC 3464 reports: "Delivery to the following recipient failed permanently:"
 * (or "has been delayed:"), the address indented, then "Technical details of … failure:" with the
 * other server's reply after "The error that the other server returned was:".
 */
function gmail(lines: string[]): TextBounce | null {
  const start = lines.findIndex((l) =>
    /^Delivery to the following recipients? (failed permanently|has been delayed|failed)/i.test(l.trim()),
  );
  if (start === -1) return null;
  const permanent = !/delayed/i.test(lines[start]!);
  const addressLine = lines.slice(start + 1).find((l) => l.trim() !== '');
  const recipient = addressLine ? ADDRESS.exec(addressLine)?.[1] : null;
  if (!recipient) return null;
  const details = section(lines, /^Technical details of (permanent|temporary) failure/i, /^-{3,}/) ?? [];
  const joined = oneLine(details);
  const reply = joined ? /returned was:\s*(.*)$/i.exec(joined)?.[1] : null;
  return { format: 'gmail', recipient, diagnostic: reply ?? joined, permanent };
}

/**
 * Exchange 2003: "The following recipient(s) could not be reached:", then `addr on <date>`, the
 * explanation indented below it and `<server #5.1.1>` closing it.
 */
function exchange(lines: string[]): TextBounce | null {
  if (!lines.some((l) => /Your message did not reach some or all of the intended recipients/i.test(l)))
    return null;
  const block = section(lines, /following recipient\(s\) could not be reached:/i, /^\S/) ?? [];
  const at = block.findIndex((l) => ADDRESS.test(l) && /\S+@\S+/.test(l));
  if (at === -1) return null;
  const recipient = ADDRESS.exec(block[at]!)![1]!;
  const reason: string[] = [];
  for (const line of block.slice(at + 1)) {
    if (line.trim() !== '' && !/^\s{2,}/.test(line)) break;
    if (/^\s*\S+@\S+ on /.test(line)) break;
    reason.push(line);
  }
  return { format: 'exchange', recipient, diagnostic: oneLine(reason), permanent: true };
}

/** A people-only bounce in one of the known layouts, or null. `text` is the report's plain text. */
export function parseTextBounce(text: string): TextBounce | null {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  return qmail(lines) ?? exim(lines) ?? gmail(lines) ?? exchange(lines);
}
