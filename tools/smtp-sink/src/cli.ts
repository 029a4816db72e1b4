// `npm start -w @titan/smtp-sink`: an SMTP server on 127.0.0.1:2525 printing every mail it gets.
// Switches (env or flags; comma-separated addresses):
//   SINK_BOUNCE / --bounce            accept, then send a DSN (5.1.1, failed) to the Return-Path
//   SINK_SOFT_BOUNCE / --soft-bounce  accept, then send a DSN (4.4.1, delayed)
//   SINK_COMPLAIN / --complain        accept, then send an ARF abuse report
//   SINK_DEFER / --defer              answer RCPT with 451 (address[:times] — only the first times)
//   SINK_REJECT / --reject            answer RCPT with 550
//   BOUNCE_TO / --bounce-to           where reports go (host:port), e.g. 127.0.0.1:2526 (Titan's BOUNCE_SMTP_PORT)
import { startSmtpSink, type AddressBehavior } from './index';

function option(flag: string, env: string): string | undefined {
  const i = process.argv.indexOf(`--${flag}`);
  if (i !== -1 && process.argv[i + 1]) return process.argv[i + 1];
  return process.env[env] || undefined;
}
const list = (v: string | undefined) =>
  (v ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

const behaviors: Record<string, AddressBehavior> = {};
for (const a of list(option('bounce', 'SINK_BOUNCE'))) behaviors[a] = 'bounce';
for (const a of list(option('soft-bounce', 'SINK_SOFT_BOUNCE'))) behaviors[a] = 'soft-bounce';
for (const a of list(option('complain', 'SINK_COMPLAIN'))) behaviors[a] = 'complain';
for (const a of list(option('reject', 'SINK_REJECT'))) behaviors[a] = { code: 550 };
for (const entry of list(option('defer', 'SINK_DEFER'))) {
  const [address, times] = entry.split(':');
  behaviors[address!] = { code: 451, ...(times ? { times: Number(times) } : {}) };
}

const port = Number(option('port', 'PORT') ?? 2525);
const sink = await startSmtpSink({
  port,
  behaviors,
  bounceTo: option('bounce-to', 'BOUNCE_TO'),
  onMail(mail) {
    console.log(`\n── ${mail.receivedAt.toISOString()} ───────────────────────────`);
    console.log(`From:    ${mail.from}\nTo:      ${mail.to}\nSubject: ${mail.subject}\n`);
    console.log(mail.text);
  },
  onReport(report) {
    console.log(
      `Sent ${report.kind === 'dsn' ? 'a DSN' : 'a complaint (ARF)'} about ${report.about} to ${report.to} via ${report.target}`,
    );
  },
  onReportError(err) {
    console.error('Could not send a report:', err instanceof Error ? err.message : err);
  },
});
console.log(`SMTP sink listening on ${sink.url}`);
for (const [address, behavior] of Object.entries(behaviors))
  console.log(
    `  ${address}: ${typeof behavior === 'string' ? behavior : `RCPT ${behavior.code}${behavior.times ? ` ×${behavior.times}` : ''}`}`,
  );
console.log(`Start Titan with: SMTP_URL=${sink.url} npm start`);
process.on('SIGINT', () => void sink.close().then(() => process.exit(0)));
process.on('SIGTERM', () => void sink.close().then(() => process.exit(0)));
