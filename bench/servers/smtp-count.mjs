// The mail server both sides of the bulk-mail suite send to: a real SMTP server (the smtp-server
// package, as tools/smtp-sink) that reads every message to its end and counts it, without
// parsing or keeping it — so neither side is measured by the sink's own cost. Each message's
// envelope sender and a digest of its headers are kept for the suite's checks (VERP Return-Path,
// DKIM-Signature present); GET /state on the control port answers the counts.
// Env: SINK_SMTP_PORT, SINK_HTTP_PORT (127.0.0.1).
import { createServer } from 'node:http';
import { SMTPServer } from 'smtp-server';

const state = {
  messages: 0,
  bytes: 0,
  dkimSigned: 0,
  verp: 0,
  listUnsubscribePost: 0,
  firstAt: null,
  lastAt: null,
};

const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS', 'AUTH'],
  logger: false,
  size: 10 * 1024 * 1024,
  maxClients: 200,
  onData(stream, session, callback) {
    let head = '';
    let inHead = true;
    let bytes = 0;
    stream.on('data', (chunk) => {
      bytes += chunk.length;
      if (inHead) {
        head += chunk.toString('latin1');
        const end = head.indexOf('\r\n\r\n');
        if (end >= 0) {
          head = head.slice(0, end);
          inHead = false;
        } else if (head.length > 64 * 1024) inHead = false;
      }
    });
    stream.on('end', () => {
      const now = Date.now();
      state.messages++;
      state.bytes += bytes;
      state.firstAt ??= now;
      state.lastAt = now;
      if (/^dkim-signature:/im.test(head)) state.dkimSigned++;
      if (/^list-unsubscribe-post:/im.test(head)) state.listUnsubscribePost++;
      if (/^bounce\+[^@]+@/i.test(session.envelope.mailFrom?.address ?? '')) state.verp++;
      callback();
    });
  },
});

const smtpPort = Number(process.env.SINK_SMTP_PORT);
const httpPort = Number(process.env.SINK_HTTP_PORT);
smtp.listen(smtpPort, '127.0.0.1');
createServer((req, res) => {
  if (req.url === '/reset' && req.method === 'POST') {
    Object.assign(state, {
      messages: 0,
      bytes: 0,
      dkimSigned: 0,
      verp: 0,
      listUnsubscribePost: 0,
      firstAt: null,
      lastAt: null,
    });
  }
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify(state));
}).listen(httpPort, '127.0.0.1');
