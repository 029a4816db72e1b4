// `npm start -w @titan/push-sim`: a push service on PUSH_SIM_PORT (default 4580) for the demo.
import { startPushSim } from './index';

const sim = await startPushSim({ port: Number(process.env.PUSH_SIM_PORT ?? 4580) });
console.log(`push-sim listening on ${sim.url} (POST /push/:token)`);
