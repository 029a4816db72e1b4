// `npm start -w @titan/whatsapp-cloud-sim`: the WhatsApp Cloud API simulator on 127.0.0.1:4010
// with dev credentials, printing what Titan needs to talk to it.
import { startWhatsappCloudSim, type SimOptions } from './index';

const env = process.env;
const opts = {
  port: Number(env.SIM_PORT ?? 4010),
  host: env.SIM_HOST ?? '127.0.0.1',
  accessToken: env.SIM_ACCESS_TOKEN ?? 'sim-access-token',
  appSecret: env.SIM_APP_SECRET ?? 'sim-app-secret',
  phoneNumberId: env.SIM_PHONE_NUMBER_ID ?? '100000000000001',
  wabaId: env.SIM_WABA_ID ?? '200000000000001',
  displayPhoneNumber: env.SIM_DISPLAY_PHONE_NUMBER ?? '15550100100',
  ...(env.SIM_WEBHOOK_URL ? { webhookUrl: env.SIM_WEBHOOK_URL } : {}),
  ...(env.SIM_STATUS_DELAY_MS ? { statusDelayMs: Number(env.SIM_STATUS_DELAY_MS) } : {}),
} satisfies SimOptions;
const sim = await startWhatsappCloudSim(opts);
console.log(`WhatsApp Cloud API simulator on ${sim.url}`);
console.log(`  Graph URL:   ${sim.graphUrl}   (Titan's WHATSAPP_GRAPH_URL)`);
console.log(`  Phone page:  ${sim.phoneUrl}`);
console.log(`  Control API: ${sim.url}/sim/state`);
console.log(
  `  Credentials: access token "${opts.accessToken}", app secret "${opts.appSecret}", ` +
    `phone number id ${opts.phoneNumberId}, WABA id ${opts.wabaId}, number ${opts.displayPhoneNumber}`,
);
console.log(
  `  Webhooks to: ${env.SIM_WEBHOOK_URL ?? '(none yet: set SIM_WEBHOOK_URL or POST /sim/webhook-url)'}`,
);
const stop = () => void sim.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
