// `npm start -w @titan/s3-sim`: an S3-compatible store on 127.0.0.1:9000 with bucket "titan".
import { startS3Sim } from './index';

const sim = await startS3Sim({ port: Number(process.env.PORT ?? 9000) });
console.log(`S3 simulator on ${sim.url} (bucket "titan", in memory)`);
console.log(
  `Start Titan with: S3_BUCKET=titan S3_ENDPOINT=${sim.url} S3_FORCE_PATH_STYLE=true ` +
    `S3_ACCESS_KEY_ID=${sim.accessKeyId} S3_SECRET_ACCESS_KEY=${sim.secretAccessKey} npm start`,
);
process.on('SIGINT', () => void sim.close().then(() => process.exit(0)));
