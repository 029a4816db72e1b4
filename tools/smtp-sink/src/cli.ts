// `npm start -w @titan/smtp-sink`: an SMTP server on 127.0.0.1:2525 printing every mail it gets.
import { startSmtpSink } from './index';

const port = Number(process.env.PORT ?? 2525);
const sink = await startSmtpSink({
  port,
  onMail(mail) {
    console.log(`\n── ${mail.receivedAt.toISOString()} ───────────────────────────`);
    console.log(`From:    ${mail.from}\nTo:      ${mail.to}\nSubject: ${mail.subject}\n`);
    console.log(mail.text);
  },
});
console.log(`SMTP sink listening on ${sink.url}`);
console.log(`Start Titan with: SMTP_URL=${sink.url} npm start`);
process.on('SIGINT', () => void sink.close().then(() => process.exit(0)));
process.on('SIGTERM', () => void sink.close().then(() => process.exit(0)));
