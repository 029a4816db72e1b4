// `npm start -w @titan/mcp-sim`: the MCP simulator on 127.0.0.1:4040, printing its endpoints.
import { startMcpSim } from './index';

const env = process.env;
const sim = await startMcpSim({ port: Number(env.SIM_PORT ?? 4040), host: env.SIM_HOST ?? '127.0.0.1' });
console.log(`MCP simulator on ${sim.url}`);
console.log(`  OAuth-protected MCP server: ${sim.mcpUrl}  (Settings → MCP servers, auth "OAuth")`);
console.log(`  Bearer-token MCP server:    ${sim.bearerMcpUrl}  (token ${sim.bearerToken})`);
console.log(`  Open MCP server:            ${sim.openMcpUrl}`);
console.log(
  `  Control API: ${sim.url}/sim/state · POST /sim/expire-access-tokens · /sim/revoke · /sim/switches`,
);
const stop = () => void sim.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
