// Bounces as real mail systems write them, for the recipient and Message-ID of a test's send: the
// plain-text layouts without an RFC 3464 part (qmail, classic Exim, older Gmail, Exchange 2003),
// and RFC 3464 reports of a full mailbox (5.2.2) in the words of Gmail, iCloud and Outlook.com.

export type SampleInput = { returnPath: string; recipient: string; messageId: string };

const crlf = (lines: string[]) => `${lines.join('\r\n')}\r\n`;

/** The returned message's headers as a receiving system quotes them. */
const originalHeaders = (s: SampleInput) => [
  `Return-Path: <${s.returnPath}>`,
  'Received: from mail.acme.test (mail.acme.test [198.51.100.7])',
  '\tby mx.example.net with ESMTP; Tue, 24 Nov 2026 08:16:53 +0000',
  'From: "Acme News" <news@acme.test>',
  `To: ${s.recipient}`,
  'Subject: Hello',
  `Message-ID: ${s.messageId}`,
  'Date: Tue, 24 Nov 2026 08:16:50 +0000',
  'MIME-Version: 1.0',
  'Content-Type: text/plain; charset=utf-8',
];

/** qmail-send, the remote server refusing the recipient (its reply after "Remote host said:"). */
export function qmailRemote(s: SampleInput): string {
  return crlf([
    'Return-Path: <>',
    'Date: 24 Nov 2026 08:17:01 -0000',
    'From: MAILER-DAEMON@mail.example.net',
    `To: ${s.returnPath}`,
    'Subject: failure notice',
    '',
    'Hi. This is the qmail-send program at mail.example.net.',
    "I'm afraid I wasn't able to deliver your message to the following addresses.",
    "This is a permanent error; I've given up. Sorry it didn't work out.",
    '',
    `<${s.recipient}>:`,
    '192.0.2.25 does not like recipient.',
    `Remote host said: 550 5.1.1 <${s.recipient}>... User unknown`,
    'Giving up on 192.0.2.25.',
    '',
    '--- Below this line is a copy of the message.',
    '',
    ...originalHeaders(s),
    '',
    'Hello there.',
  ]);
}

/** qmail with vpopmail: the local mailbox over quota, qmail's own status in `(#5.2.2)`. */
export function qmailOverQuota(s: SampleInput): string {
  return crlf([
    'Return-Path: <>',
    'Date: 24 Nov 2026 08:17:01 -0000',
    'From: MAILER-DAEMON@mail.example.net',
    `To: ${s.returnPath}`,
    'Subject: failure notice',
    '',
    'Hi. This is the qmail-send program at mail.example.net.',
    "I'm afraid I wasn't able to deliver your message to the following addresses.",
    "This is a permanent error; I've given up. Sorry it didn't work out.",
    '',
    `<${s.recipient}>:`,
    'user is over quota (#5.2.2)',
    '',
    '--- Below this line is a copy of the message.',
    '',
    ...originalHeaders(s),
    '',
    'Hello there.',
  ]);
}

/** Classic Exim (before it sent RFC 3464): the SMTP error after RCPT TO, the message copied below. */
export function eximClassic(s: SampleInput): string {
  return crlf([
    'Return-path: <>',
    'Received: from Debian-exim by mail.example.org with local (Exim 4.69)',
    '\tid 1LHbEx-0002Bo-4h; Tue, 24 Nov 2026 08:17:01 +0000',
    'X-Failed-Recipients: ' + s.recipient,
    'Auto-Submitted: auto-replied',
    'From: Mail Delivery System <Mailer-Daemon@mail.example.org>',
    `To: ${s.returnPath}`,
    'Subject: Mail delivery failed: returning message to sender',
    'Message-Id: <E1LHbEx-0002Bo-4h@mail.example.org>',
    'Date: Tue, 24 Nov 2026 08:17:01 +0000',
    '',
    'This message was created automatically by mail delivery software.',
    '',
    'A message that you sent could not be delivered to one or more of its',
    'recipients. This is a permanent error. The following address(es) failed:',
    '',
    `  ${s.recipient}`,
    `    SMTP error from remote mail server after RCPT TO:<${s.recipient}>:`,
    `    host mx.example.org [192.0.2.1]: 550 5.1.1 <${s.recipient}>: Recipient address rejected: User unknown in local recipient table`,
    '',
    '------ This is a copy of the message, including all the headers. ------',
    '',
    ...originalHeaders(s),
    '',
    'Hello there.',
  ]);
}

/** Gmail before RFC 3464 reports: "Delivery to the following recipient failed permanently". */
export function gmailOld(s: SampleInput): string {
  return crlf([
    'MIME-Version: 1.0',
    'Return-Path: <>',
    'From: Mail Delivery Subsystem <mailer-daemon@googlemail.com>',
    `To: ${s.returnPath}`,
    'Subject: Delivery Status Notification (Failure)',
    'Message-ID: <000e0cd5f0e8b1a2c9046a9e8a5b@google.com>',
    'Date: Tue, 24 Nov 2026 08:17:01 +0000',
    'Content-Type: text/plain; charset=ISO-8859-1',
    '',
    'This is an automatically generated Delivery Status Notification',
    '',
    'Delivery to the following recipient failed permanently:',
    '',
    `     ${s.recipient}`,
    '',
    'Technical details of permanent failure:',
    'Google tried to deliver your message, but it was rejected by the recipient domain. We recommend contacting the other email provider for further information about the cause of this error. The error that the other server returned was: ' +
      `550 550 5.1.1 <${s.recipient}>: Recipient address rejected: User unknown in virtual alias table (state 14).`,
    '',
    '----- Original message -----',
    '',
    ...originalHeaders(s),
    '',
    'Hello there.',
  ]);
}

/** Older Gmail, delayed: "Delivery to the following recipient has been delayed". */
export function gmailOldDelayed(s: SampleInput): string {
  return gmailOld(s)
    .replace('failed permanently:', 'has been delayed:')
    .replace('Technical details of permanent failure:', 'Technical details of temporary failure:')
    .replace(
      /The error that the other server returned was: .*/,
      'The error that the other server returned was: 421 4.7.0 Try again later, closing connection. (state 13).',
    );
}

/**
 * Exchange 2003: the explanation in text/plain ending with `<server #5.1.1>`, the original
 * attached as message/rfc822 (no delivery-status part).
 */
export function exchange2003(s: SampleInput): string {
  const boundary = '----_=_NextPart_001_01C9765A.6D1A3E10';
  return crlf([
    'Received: from mail.example.com ([192.0.2.40]) by mail.example.com with Microsoft SMTPSVC(6.0.3790.3959);',
    '\t Tue, 24 Nov 2026 08:17:01 +0000',
    'From: System Administrator <postmaster@example.com>',
    `To: ${s.returnPath}`,
    'Subject: Undeliverable: Hello',
    'Date: Tue, 24 Nov 2026 08:17:01 +0000',
    'MIME-Version: 1.0',
    'X-MS-Embedded-Report: ',
    `Content-Type: multipart/mixed; boundary="${boundary}"`,
    'Message-ID: <MAILEXAMPLEvbR0y7kQ00000b2f@mail.example.com>',
    '',
    'This is a multi-part message in MIME format.',
    '',
    `--${boundary}`,
    'Content-Type: text/plain; charset="iso-8859-1"',
    'Content-Transfer-Encoding: quoted-printable',
    '',
    'Your message did not reach some or all of the intended recipients.',
    '',
    '      Subject:\tHello',
    '      Sent:\t11/24/2026 8:16 AM',
    '',
    'The following recipient(s) could not be reached:',
    '',
    `      ${s.recipient} on 11/24/2026 8:17 AM`,
    '            The e-mail account does not exist at the organization this message was s=',
    'ent to.  Check the e-mail address, or contact the recipient directly to find=',
    ' out the correct address.',
    '            <mail.example.com #5.1.1>',
    '',
    `--${boundary}`,
    'Content-Type: message/rfc822',
    '',
    ...originalHeaders(s),
    '',
    'Hello there.',
    '',
    `--${boundary}--`,
  ]);
}

/** An RFC 3464 report of a full mailbox, as the big mailbox providers word it. */
function mailboxFullDsn(s: SampleInput, mta: string, diagnostic: string, status = '5.2.2'): string {
  const boundary = `full-${mta}`;
  return crlf([
    `From: Mail Delivery Subsystem <mailer-daemon@${mta}>`,
    `To: ${s.returnPath}`,
    'Subject: Delivery Status Notification (Failure)',
    'MIME-Version: 1.0',
    `Content-Type: multipart/report; report-type=delivery-status; boundary="${boundary}"`,
    '',
    `--${boundary}`,
    'Content-Type: text/plain; charset="UTF-8"',
    '',
    "Your message wasn't delivered: the recipient's mailbox is full.",
    '',
    `--${boundary}`,
    'Content-Type: message/delivery-status',
    '',
    `Reporting-MTA: dns; ${mta}`,
    '',
    `Final-Recipient: rfc822; ${s.recipient}`,
    'Action: failed',
    `Status: ${status}`,
    `Diagnostic-Code: smtp; ${diagnostic}`,
    '',
    `--${boundary}`,
    'Content-Type: message/rfc822',
    '',
    ...originalHeaders(s),
    '',
    'Hello there.',
    '',
    `--${boundary}--`,
  ]);
}

export const gmailFull = (s: SampleInput) =>
  mailboxFullDsn(
    s,
    'googlemail.com',
    "552-5.2.2 The recipient's inbox is out of storage space. Please direct the recipient to\r\n 552-5.2.2 https://support.google.com/mail/?p=OverQuotaTemp 41be03b00d2f7-5f8a1c2d3e4si123.1 - gsmtp",
  );
export const icloudFull = (s: SampleInput) =>
  mailboxFullDsn(s, 'mx01.mail.icloud.com', `552 5.2.2 <${s.recipient}>: user is over quota`);
/** Outlook.com writes a generic status and the specific code in its words. */
export const outlookFull = (s: SampleInput) =>
  mailboxFullDsn(
    s,
    'outlook.com',
    '554 5.2.2 mailbox full; STOREDRV.Deliver.Exception:QuotaExceededException.MapiExceptionShutoffQuotaExceeded',
    '5.0.0',
  );
