// Worker-only process (`npm run worker`): runs background jobs, serves no HTTP.
import closeWithGrace from 'close-with-grace';
import { ConfigError, loadConfig, type Config } from './config';
import { createLogger } from './platform/logger';
import { startRuntime } from './runtime';

let config: Config;
try {
  config = loadConfig();
} catch (err) {
  if (err instanceof ConfigError) {
    console.error(err.message);
    process.exit(1);
  }
  throw err;
}

const logger = createLogger(config);
try {
  const runtime = await startRuntime(config, logger, { http: false, workers: true });
  closeWithGrace({ delay: 25_000, logger }, async ({ signal, err }) => {
    if (err) logger.error({ err }, 'worker shutting down after an error');
    else logger.info({ signal }, 'worker shutting down');
    await runtime.close();
  });
  logger.info({ database: runtime.database.kind }, 'Titan worker is running');
} catch (err) {
  logger.fatal({ err }, 'Titan worker could not start');
  setTimeout(() => process.exit(1), 100);
}
