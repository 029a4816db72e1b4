// `npm start -w @titan/dns-sim`: an authoritative DNS server on 127.0.0.1:5300 (UDP and TCP) with
// its HTTP control endpoint on 127.0.0.1:5380. ZONES (comma-separated) are created at start.
import { startDnsControl, startDnsSim } from './index';

const sim = await startDnsSim({
  port: Number(process.env.PORT ?? 5300),
  host: process.env.HOST ?? '127.0.0.1',
});
const control = await startDnsControl(sim, { port: Number(process.env.CONTROL_PORT ?? 5380) });
for (const zone of (process.env.ZONES ?? '')
  .split(',')
  .map((z) => z.trim())
  .filter(Boolean)) {
  sim.setZone(zone);
}
console.log(`DNS server (authoritative) listening on ${sim.address} (UDP and TCP)`);
console.log(`Control endpoint: ${control.url}/zones`);
console.log(`Start Titan with: DNS_SERVERS=${sim.address} npm start`);
const stop = () => void Promise.all([sim.close(), control.close()]).then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
