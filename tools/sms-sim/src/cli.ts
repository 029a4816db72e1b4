// `npm start -w @titan/sms-sim`: the Twilio Messaging API simulator on 127.0.0.1:4020 with one dev
// account, printing what Titan needs to talk to it.
import { startSmsSim, type SimAccount } from './index';

const env = process.env;
const account: SimAccount = {
  accountSid: env.SIM_ACCOUNT_SID ?? 'AC00000000000000000000000000000001',
  authToken: env.SIM_AUTH_TOKEN ?? 'sim-auth-token-0123456789abcdef',
  numbers: (env.SIM_NUMBERS ?? '+15550100200')
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean),
  ...(env.SIM_MESSAGING_SERVICE_SID
    ? {
        messagingServices: [
          { sid: env.SIM_MESSAGING_SERVICE_SID, numbers: (env.SIM_NUMBERS ?? '+15550100200').split(',') },
        ],
      }
    : {}),
};
const sim = await startSmsSim({
  port: Number(env.SIM_PORT ?? 4020),
  host: env.SIM_HOST ?? '127.0.0.1',
  accounts: [account],
  ...(env.SIM_INBOUND_URL ? { inboundUrl: env.SIM_INBOUND_URL } : {}),
  ...(env.SIM_STATUS_DELAY_MS ? { switches: { statusDelayMs: Number(env.SIM_STATUS_DELAY_MS) } } : {}),
});
console.log(`Twilio SMS simulator on ${sim.url}`);
console.log(`  API URL:     ${sim.apiUrl}   (Titan's SMS_API_URL)`);
console.log(`  Phone page:  ${sim.phoneUrl}`);
console.log(`  Control API: ${sim.url}/sim/state`);
console.log(
  `  Credentials: Account SID ${account.accountSid}, Auth Token "${account.authToken}", number ${account.numbers.join(', ')}`,
);
console.log(
  `  Inbound to:  ${env.SIM_INBOUND_URL ?? '(none yet: set SIM_INBOUND_URL or POST /sim/inbound-url)'}`,
);
const stop = () => void sim.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
