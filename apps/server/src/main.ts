// Process entry: config → database → app → listen, with workers unless RUN_WORKERS=false.
import closeWithGrace from 'close-with-grace';
import { ConfigError, loadConfig, type Config } from './config';
import { DataDirInUseError } from './db/lock';
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
  const runtime = await startRuntime(config, logger, { http: true, workers: config.RUN_WORKERS });
  closeWithGrace({ delay: 25_000, logger }, async ({ signal, err }) => {
    if (err) logger.error({ err }, 'shutting down after an error');
    else logger.info({ signal }, 'shutting down');
    await runtime.close();
  });
  await runtime.app!.listen({ port: config.PORT, host: config.HOST });
  logger.info(
    { url: config.PUBLIC_URL, database: runtime.database.kind, workers: config.RUN_WORKERS },
    `Titan is running on ${config.PUBLIC_URL}`,
  );
  // Where mail goes and who can read it: in a default install, only the person at this machine.
  logger.info({ host: config.HOST }, runtime.mailer.describeDelivery(config.PUBLIC_URL));
} catch (err) {
  if (err instanceof DataDirInUseError) logger.fatal(err.message);
  else logger.fatal({ err }, 'Titan could not start');
  // Let the pino transport flush before exiting.
  setTimeout(() => process.exit(1), 100);
}
