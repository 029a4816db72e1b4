// `npm start -w @titan/chargebee-sim`: the Chargebee simulator on 127.0.0.1:4050 with the default
// catalogue, printing what Titan needs to talk to it.
import { DEFAULT_ITEM_PRICES, startChargebeeSim } from './index';

const env = process.env;
const webhook = {
  url: env.SIM_WEBHOOK_URL ?? 'http://127.0.0.1:3000/api/chargebee/webhook/',
  username: env.SIM_WEBHOOK_USERNAME ?? 'chargebee',
  password: env.SIM_WEBHOOK_PASSWORD ?? 'chargebee-sim-webhook-password',
};
const sim = await startChargebeeSim({
  port: Number(env.SIM_PORT ?? 4050),
  host: env.SIM_HOST ?? '127.0.0.1',
  site: env.SIM_SITE ?? 'titan-test',
  apiKey: env.SIM_API_KEY ?? 'test_chargebee_sim_api_key',
  itemPrices: DEFAULT_ITEM_PRICES,
  webhook,
});
console.log(`Chargebee simulator on ${sim.url}`);
console.log(`  CHARGEBEE_SITE=${sim.site}`);
console.log(`  CHARGEBEE_API_KEY=${sim.apiKey}`);
console.log(`  CHARGEBEE_API_URL=${sim.apiUrl}`);
console.log(`  CHARGEBEE_WEBHOOK_USERNAME=${webhook.username}`);
console.log(`  CHARGEBEE_WEBHOOK_PASSWORD=${webhook.password}`);
console.log(`  Webhooks to: ${webhook.url}   (SIM_WEBHOOK_URL)`);
console.log(`  Control API: ${sim.url}/sim/state`);
const stop = () => void sim.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
