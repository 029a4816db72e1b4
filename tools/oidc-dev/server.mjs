#!/usr/bin/env node
// `npm run start -w @titan/oidc-dev`: an OpenID provider on 127.0.0.1:4000 for trying Titan's
// single sign-on locally. PORT, HOST, TITAN_URL and OIDC_CLIENT_ID change the defaults.
import { startDevProvider } from './provider.mjs';

const port = Number(process.env.PORT ?? 4000);
const host = process.env.HOST ?? '127.0.0.1';
const titanUrl = (process.env.TITAN_URL ?? 'http://localhost:3000').replace(/\/+$/, '');
const clientId = process.env.OIDC_CLIENT_ID ?? 'titan-dev';

if (!Number.isInteger(port) || port < 1 || port > 65535) {
  console.error(`PORT: expected a port number (1-65535) (got ${JSON.stringify(process.env.PORT)})`);
  process.exit(1);
}

const dev = await startDevProvider({
  host,
  port,
  clients: [
    {
      // A public client, as a browser app is: PKCE instead of a secret.
      client_id: clientId,
      token_endpoint_auth_method: 'none',
      redirect_uris: [`${titanUrl}/auth-flow`],
      response_types: ['code'],
      grant_types: ['authorization_code'],
    },
  ],
});

console.log(`OpenID provider for local development: ${dev.issuer}
Sign-in page: any email address, no password. Start Titan with:

  PUBLIC_URL=${titanUrl} OIDC_ISSUER=${dev.issuer} OIDC_CLIENT_ID=${clientId} npm start

Discovery: ${dev.issuer}/.well-known/openid-configuration`);

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    dev.close().then(() => process.exit(0));
  });
}
