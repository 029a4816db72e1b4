// `npm start -w @titan/llm-sim`: the OpenAI-compatible simulator on 127.0.0.1:4030, printing what
// Titan needs to use it (LLM_BASE_URL, LLM_API_KEY, LLM_MODEL).
import { DEFAULT_SIM_KEY, DEFAULT_SIM_MODEL, startLlmSim } from './index';

const env = process.env;
const sim = await startLlmSim({
  port: Number(env.SIM_PORT ?? 4030),
  host: env.SIM_HOST ?? '127.0.0.1',
  apiKey: env.SIM_API_KEY ?? DEFAULT_SIM_KEY,
  models: (env.SIM_MODELS ?? DEFAULT_SIM_MODEL)
    .split(',')
    .map((m) => m.trim())
    .filter(Boolean),
  // Slow enough for a person to watch a generation stream in.
  chunkDelayMs: Number(env.SIM_CHUNK_DELAY_MS ?? 15),
});
console.log(`OpenAI-compatible LLM simulator on ${sim.url}`);
console.log(`  LLM_BASE_URL=${sim.baseUrl}`);
console.log(`  LLM_API_KEY=${sim.apiKey ?? '(any)'}`);
console.log(`  LLM_MODEL=${sim.models[0]}`);
console.log(`  Control API: ${sim.url}/sim/state (POST /sim/script to queue answers)`);
const stop = () => void sim.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
