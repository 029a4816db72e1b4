// The mail Titan sends, built and DKIM-signed in one pass into one buffer: headers, a text part and
// an HTML part (quoted-printable, UTF-8), signed relaxed/relaxed with rsa-sha256 over the fields of
// DKIM_HEADER_FIELDS the message has. nodemailer builds the same message through a chain of
// streams, which costs as much CPU as the RSA signature itself; this is the same wire format made
// with string operations, for the shape every send has. Anything unusual (non-ASCII addresses or
// header values other than the subject, line breaks in a header) answers null, and the caller
// falls back to nodemailer.
import { createHash, sign, type KeyObject } from 'node:crypto';
import { encodeWords, foldLines } from 'nodemailer/lib/mime-funcs';
import { encode as qpEncode, wrap as qpWrap } from 'nodemailer/lib/qp';

export type MimeMessage = {
  from: string;
  to: string;
  subject: string;
  html: string | null;
  text: string;
  headers: Record<string, string>;
  messageId: string;
  date: Date;
  dkim: { domainName: string; keySelector: string; privateKey: KeyObject; headerFieldNames: string } | null;
};

/** Printable ASCII only (a header value that needs no encoding and cannot break a line). */
const PLAIN = /^[\x20-\x7e]*$/;

let sequence = 0;
/** A boundary no quoted-printable text can contain (`=_` never occurs in it). */
function boundary(): string {
  sequence = (sequence + 1) % 0x7fffffff;
  return `=_titan_${process.pid.toString(36)}_${Date.now().toString(36)}_${sequence.toString(36)}`;
}

/** RFC 5322 date as nodemailer writes it: `Tue, 24 Nov 2026 08:16:53 +0000`. */
function rfc2822(date: Date): string {
  return date.toUTCString().replace(/GMT/, '+0000');
}

/** A text part's body: CRLF line ends, quoted-printable, lines of at most 76. */
function quotedPrintable(text: string): string {
  return qpWrap(qpEncode(text.replace(/\r\n|\r|\n/g, '\r\n')), 76);
}

/** RFC 6376 §3.4.4: whitespace runs to one space, none at line ends, no empty lines at the end. */
function relaxedBody(body: string): string {
  const canonical = body
    .replace(/[ \t]+\r\n/g, '\r\n')
    .replace(/[ \t]+/g, ' ')
    .replace(/(\r\n)+$/, '');
  return canonical === '' ? '' : `${canonical}\r\n`;
}

/** RFC 6376 §3.4.2: `name:value`, the name lower-cased, unfolded, whitespace runs to one space. */
function relaxedHeader(name: string, value: string): string {
  return `${name.toLowerCase()}:${value
    .replace(/\r\n/g, '')
    .replace(/[ \t]+/g, ' ')
    .trim()}`;
}

/** The message as one buffer (CRLF line ends, not dot-stuffed), or null when it is not the usual shape. */
export function buildMime(m: MimeMessage): Buffer | null {
  if (!PLAIN.test(m.from) || !PLAIN.test(m.to) || !PLAIN.test(m.messageId)) return null;
  if (/[\r\n]/.test(m.subject)) return null;
  for (const [key, value] of Object.entries(m.headers)) {
    if (!/^[A-Za-z0-9-]+$/.test(key) || !PLAIN.test(value)) return null;
  }

  // Header fields in order, each [name, value as written after "name: " (folded)].
  const fields: [string, string][] = [
    ['From', m.from],
    ['To', m.to],
    ['Subject', encodeWords(m.subject, 'Q', 52, true)],
    ['Message-ID', m.messageId],
    ['Date', rfc2822(m.date)],
    ['MIME-Version', '1.0'],
  ];
  for (const [key, value] of Object.entries(m.headers)) fields.push([key, value]);

  // nodemailer's shape: text, then HTML, in multipart/alternative; an empty text part is left out.
  const parts: [string, string][] = [];
  if (m.text !== '' || m.html === null) parts.push(['text/plain', m.text]);
  if (m.html !== null) parts.push(['text/html', m.html]);
  const partHead = (type: string) =>
    `Content-Type: ${type}; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n`;
  let body: string;
  if (parts.length === 1) {
    const [type, content] = parts[0]!;
    fields.push(['Content-Type', `${type}; charset=utf-8`]);
    fields.push(['Content-Transfer-Encoding', 'quoted-printable']);
    body = quotedPrintable(content);
  } else {
    const b = boundary();
    fields.push(['Content-Type', `multipart/alternative;\r\n boundary="${b}"`]);
    body = '';
    for (const [type, content] of parts) body += `--${b}\r\n${partHead(type)}${quotedPrintable(content)}\r\n`;
    body += `--${b}--\r\n`;
  }

  const lines = fields.map(([name, value]) =>
    value.includes('\r\n') ? `${name}: ${value}` : foldLines(`${name}: ${value}`, 76),
  );
  let head = lines.join('\r\n');
  if (m.dkim) head = `${dkimSignature(m.dkim, fields, lines, body)}\r\n${head}`;
  return Buffer.from(`${head}\r\n\r\n${body}`, 'utf8');
}

/** The DKIM-Signature field (folded) over the listed fields the message has, and its body. */
function dkimSignature(
  dkim: NonNullable<MimeMessage['dkim']>,
  fields: [string, string][],
  lines: string[],
  body: string,
): string {
  const wanted = new Set(dkim.headerFieldNames.toLowerCase().split(':'));
  const signed: string[] = [];
  const canonical: string[] = [];
  fields.forEach(([name], i) => {
    if (!wanted.has(name.toLowerCase())) return;
    signed.push(name.toLowerCase());
    const line = lines[i]!;
    canonical.push(relaxedHeader(name, line.slice(line.indexOf(':') + 1)));
  });
  const bh = createHash('sha256').update(relaxedBody(body)).digest('base64');
  const value =
    `v=1; a=rsa-sha256; c=relaxed/relaxed; d=${dkim.domainName};\r\n q=dns/txt; s=${dkim.keySelector};` +
    ` bh=${bh};\r\n h=${signed.join(':')};\r\n b=`;
  canonical.push(relaxedHeader('DKIM-Signature', value));
  const b = sign('sha256', Buffer.from(canonical.join('\r\n'), 'utf8'), dkim.privateKey).toString('base64');
  return `DKIM-Signature: ${value}${b.replace(/(.{74})(?=.)/g, '$1\r\n ')}`;
}
