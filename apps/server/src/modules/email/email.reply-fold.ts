// The reply a person wrote, without the quoted history and the signature under it: the algorithm
// of email-reply-parser 2.3.7 (MIT, Crisp IM SAS; a port of willdurand/EmailReplyParser) with its
// patterns, rewritten so it costs less on a long mail. The library reverses the whole text one
// character at a time, then every line again for each pattern test (twice per line for the
// signatures): on the email-inbound bench's 50 KB text that was 5.4 ms of CPU a mail, the largest
// single cost after MIME parsing. Here the lines are walked bottom-up in their own orientation (a
// pattern tested on a line reversed twice is the pattern tested on the line), and a line's
// signature test is reused when trimming did not change it: the same fragments, the same answer.
// `email-reply-fold.test.ts` holds the two to the same output (the library stays as that oracle).

/* eslint-disable no-useless-escape -- the library's patterns, copied as written */
/** Lines that start a quoted history ("On … wrote:", "-----Original Message-----", …). */
const QUOTE_HEADERS: RegExp[] = [
  /^-*\s*(On\s.+\s.+\n?wrote:{0,1})\s{0,1}-*$/m,
  /^-*\s*(Le\s.+\s.+\n?écrit\s?:{0,1})\s{0,1}-*$/m,
  /^-*\s*(El\s.+\s.+\n?escribió:{0,1})\s{0,1}-*$/m,
  /^-*\s*(Il\s.+\s.+\n?scritto:{0,1})\s{0,1}-*$/m,
  /^-*\s*(Em\s.+\s.+\n?escreveu:{0,1})\s{0,1}-*$/m,
  /^\s*(Am\s.+\s)\n?\n?schrieb.+\s?(\[|<).+(\]|>):$/m,
  /^\s*(Op\s[\s\S]+?\n?schreef[\s\S]+:)$/m,
  /^\s*((W\sdniu|Dnia)\s[\s\S]+?(pisze|napisał(\(a\))?):)$/mu,
  /^\s*(Den\s.+\s\n?skrev\s.+:)$/m,
  /^\s*(pe\s.+\s.+\n?kirjoitti:)$/m,
  /^\s*(Am\s.+\sum\s.+\s\n?schrieb\s.+:)$/m,
  // eslint-disable-next-line no-irregular-whitespace -- the library's pattern has a no-break space
  /^\s*(ср\,\s.+\n? г\. в\s.+,\s.+[\[|<].+[\]|>]:)$/m,
  /^(在[\s\S]+写道：)$/m,
  /^(20[0-9]{2}\..+\s작성:)$/m,
  /^(20[0-9]{2}\/.+のメッセージ:)$/m,
  /^(.+\s<.+>\sschrieb:)$/m,
  /^(.+\son.*at.*wrote:)$/m,
  /^\s*(From\s?:.+\s?\n?\s*[\[|<].+[\]|>])/m,
  /^\s*(Von\s?:.+\s?\n?\s*[\[|<].+[\]|>])/m,
  /^\s*(De\s?:.+\s?\n?\s*(\[|<).+(\]|>))/m,
  /^\s*(Van\s?:.+\s?\n?\s*(\[|<).+(\]|>))/m,
  /^\s*(Da\s?:.+\s?\n?\s*(\[|<).+(\]|>))/m,
  /^(20[0-9]{2})-([0-9]{2}).([0-9]{2}).([0-9]{2}):([0-9]{2})\n?(.*)>:$/m,
  /^\s*([a-z]{3,4}\.\s[\s\S]+\sskrev\s[\s\S]+:)$/m,
  /^([0-9]{2}).([0-9]{2}).(20[0-9]{2})(.*)(([0-9]{2}).([0-9]{2}))(.*)\"( *)<(.*)>( *):$/m,
  /^[0-9]{2}:[0-9]{2}(.*)[0-9]{4}(.*)\"( *)<(.*)>( *):$/,
  /^(.*)[0-9]{4}(.*)from(.*)<(.*)>:$/,
  /^-{1,12} ?(O|o)riginal (M|m)essage ?-{1,12}$/i,
  /^-{1,12} ?(O|o)prindelig (B|b)esked ?-{1,12}$/i,
  /^-{1,12} ?(M|m)essage d\'origine ?-{1,12}$/i,
  /^-{1,12} ?(U|u)rsprüngliche (N|n)achricht ?-{0,12}$/i,
];

/** Lines that start a signature ("-- ", "Sent from my iPhone", "Regards", …). */
const SIGNATURES: RegExp[] = [
  /^\s*-{2,4}$/,
  /^\s*_{2,4}$/,
  /^-- $/,
  /^\+{2,4}$/,
  /^\={2,4}$/,
  /^________________________________$/,
  /^Sent from (?:\s*.+)$/,
  /^Get Outlook for (?:\s*.+).*/m,
  /^Cheers,?!?$/im,
  /^Best wishes,?!?$/im,
  /^\w{0,20}\s?(\sand\s)?Regards,?!?！?$/im,
  /^Von (?:\s*.+) gesendet$/,
  /^Gesendet von (?:\s*.+) für (?:\s*.+)$/,
  /^Sendt fra (?:\s*.+)$/,
  /^Envoyé depuis (?:\s*.+)$/,
  /^Envoyé de mon (?:\s*.+)$/,
  /^Envoyé à partir de (?:\s*.+)$/,
  /^Télécharger Outlook pour (?:\s*.+).*/m,
  /^Bien . vous,?!?$/im,
  /^\w{0,20}\s?cordialement,?!?$/im,
  /^Bonne (journ.e|soir.e)!?$/im,
  /^Enviado desde (?:\s*.+)$/,
  /^-*\s*(In\sdata\s.+\s.+\n?scritto:{0,1})\s{0,1}-*$/m,
  /^Verzonden vanaf (?:\s*.+)$/,
  /^Verstuurd vanaf (?:\s*.+)$/,
];

/* eslint-enable no-useless-escape */

const isSignature = (line: string) => SIGNATURES.some((r) => r.test(line));
const isQuoteHeader = (line: string) => QUOTE_HEADERS.some((r) => r.test(line));
const TRAILING_SPACE = /\s+$/;

/**
 * A quote header the mail's client broke over two lines is joined back first (as the library
 * does): the newlines in each header's first match become spaces.
 */
function fixBrokenHeaders(text: string): string {
  let out = text;
  for (const regex of QUOTE_HEADERS) {
    const match = out.match(regex);
    if (match?.[1] !== undefined) out = out.replace(match[1], match[1].replace(/\n/g, ' '));
  }
  return out;
}

/** One block of lines, bottom-up (the last line of the block first). */
type Fragment = {
  lines: string[];
  /** Per line: whether it is a signature line as stored (cached: each is asked again). */
  signature: boolean[];
  quoted: boolean;
  isSignature: boolean;
  hidden: boolean;
};

/**
 * The text a person wrote above the quoted history and their signature: email-reply-parser's
 * `new EmailReplyParser().read(text).getVisibleText()`, character for character.
 */
export function replyParserVisibleText(input: string): string {
  const text = fixBrokenHeaders(input.replace(/\r\n/g, '\n'));
  const all = text.split('\n');
  const fragments: Fragment[] = [];
  const add = (f: Fragment) => {
    if (f.quoted || f.isSignature || f.lines.every((l) => l === '')) f.hidden = true;
    fragments.push(f);
  };
  let fragment: Fragment | null = null;
  for (let i = all.length - 1; i >= 0; i--) {
    const raw = all[i]!;
    // The library trims a line's end (its reversed start) unless the line is a signature.
    const rawSignature = isSignature(raw);
    const line = rawSignature ? raw : raw.replace(TRAILING_SPACE, '');
    const lineSignature = rawSignature || (line !== raw && isSignature(line));
    if (fragment) {
      const last = fragment.lines.length - 1;
      if (fragment.signature[last]) {
        fragment.isSignature = true;
        add(fragment);
        fragment = null;
      } else if (line === '' && isQuoteHeader(fragment.lines[last]!)) {
        fragment.quoted = true;
        add(fragment);
        fragment = null;
      }
    }
    const quoted = line.startsWith('>');
    const continues =
      fragment !== null &&
      (fragment.quoted === quoted || (fragment.quoted && (line === '' || isQuoteHeader(line))));
    if (!continues) {
      if (fragment) add(fragment);
      fragment = { lines: [], signature: [], quoted, isSignature: false, hidden: false };
    }
    fragment!.lines.push(line);
    fragment!.signature.push(lineSignature);
  }
  if (fragment) add(fragment);
  // Top-down again: each fragment's lines in their order, less one leading newline.
  const visible = fragments
    .reverse()
    .filter((f) => !f.hidden)
    .map((f) => f.lines.reverse().join('\n').replace(/^\n/, ''));
  return visible.join('\n').replace(/~*$/, '');
}
