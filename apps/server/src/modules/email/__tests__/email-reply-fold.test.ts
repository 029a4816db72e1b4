// The reply folding (email.reply-fold.ts) answers what email-reply-parser answers, character for
// character: on replies written as mail clients quote (several languages, signatures, broken
// headers, trailing spaces, CRLF, surrogate pairs) and on many texts built at random from the lines
// that move its fragments.
import EmailReplyParser from 'email-reply-parser';
import { describe, expect, it } from 'vitest';
import { replyParserVisibleText } from '../email.reply-fold';

const library = (text: string) => new EmailReplyParser().read(text).getVisibleText();

const SAMPLES = [
  'Thanks, that works.\n\nOn Mon, 3 Nov 2025 at 10:00, Acme Support <support@acme.test> wrote:\n> Try restarting it.\n> Regards',
  'Merci !\n\nLe lun. 3 nov. 2025 à 10:00, Acme <support@acme.test> a écrit :\n> Bonjour',
  'Danke\n\nAm 03.11.2025 um 10:00 schrieb Acme <support@acme.test>:\n> Hallo',
  'Yes please.\n\nOn Mon, 3 Nov 2025 at 10:00, Acme Support\n<support@acme.test> wrote:\n> Shall we?',
  'Order 1042 is late.\n\n-- \nJane Doe\nACME buyer',
  'Order 1042 is late.   \n\nSent from my iPhone',
  'Hi,\r\nthe parcel came broken.\r\n\r\nBest regards,\r\nJane\r\n\r\n-----Original Message-----\r\nFrom: Acme <a@acme.test>\r\nSent: Monday\r\n\r\nWe shipped it.',
  '> quoted first\n\nmy answer under it\n\n> more quoted\nend',
  'Hello 👋🏽 there\n\nCheers,\nJo',
  '   \n\n\t\n',
  '',
  'Line one\nLine two ~~~',
  'Line one\nLine two ~~~\n',
  'Text\n__\nsig',
  'Text\n\nFrom: Someone <x@y.test>\nSubject: earlier\n\nold text',
  'W dniu 3.11.2025 o 10:00, Jan <jan@x.test> pisze:\n> Cześć',
  'Reply\n\n2025-11-03 10:00 GMT+01:00 Jan <jan@x.test>:\n> prev',
  'a $& b\n\nOn Mon, 3 Nov\n2025, X <x@y.test> wrote:\n> q',
];

// Lines that start, end or continue fragments in the library's walk, and ordinary ones.
const VOCABULARY = [
  'Hello,',
  'Please send the invoice for order 1042.',
  '',
  '',
  '   ',
  'trailing spaces   ',
  '> quoted line',
  '>> deeper quote',
  '>',
  'On Mon, 3 Nov 2025 at 10:00, Acme <support@acme.test> wrote:',
  'On Mon, 3 Nov 2025 at 10:00, Acme',
  '<support@acme.test> wrote:',
  '-----Original Message-----',
  'From: Acme <support@acme.test>',
  '-- ',
  '--',
  '__',
  'Sent from my iPhone',
  'Regards,',
  'Kind regards ',
  'Cheers!',
  'Cordialement,',
  'Envoyé de mon iPad',
  'Get Outlook for Android',
  '~~',
  'émoji 🎉 and 𝔘𝔫𝔦𝔠𝔬𝔡𝔢',
  '\tindented line',
];

/** A small deterministic generator (mulberry32): the same texts on every run. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('reply folding', () => {
  it('answers what email-reply-parser answers on replies as clients quote them', () => {
    for (const text of SAMPLES)
      expect(replyParserVisibleText(text), JSON.stringify(text)).toBe(library(text));
  });

  it('answers what email-reply-parser answers on texts built at random from its markers', () => {
    const next = random(30);
    for (let i = 0; i < 3000; i++) {
      const lines = Array.from(
        { length: 1 + Math.floor(next() * 14) },
        () => VOCABULARY[Math.floor(next() * VOCABULARY.length)]!,
      );
      const text = lines.join(next() < 0.2 ? '\r\n' : '\n');
      expect(replyParserVisibleText(text), JSON.stringify(text)).toBe(library(text));
    }
  });

  it('folds a quoted history and a signature away, and keeps a plain text whole', () => {
    expect(
      replyParserVisibleText('Thanks!\n\nOn Mon, 3 Nov 2025, Acme <a@acme.test> wrote:\n> Try it.'),
    ).toBe('Thanks!\n');
    expect(replyParserVisibleText('Late again.\n\n-- \nJane')).toBe('Late again.\n');
    expect(replyParserVisibleText('Line one  \nLine two')).toBe('Line one\nLine two');
  });
});
