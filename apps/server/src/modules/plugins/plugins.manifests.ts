// The plugin catalogue: the built-in "HTTP webhook" plugin, and manifests an operator adds
// (PLUGIN_MANIFESTS_FILE: a JSON array of manifests in the format of ZPluginManifest).
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { ZPluginManifest, type TPluginManifest } from '@titan/contracts';

export const HTTP_WEBHOOK_PLUGIN = 'http-webhook';

export const BUILTIN_PLUGINS: TPluginManifest[] = [
  ZPluginManifest.parse({
    id: HTTP_WEBHOOK_PLUGIN,
    name: 'HTTP webhook',
    description:
      'Lets agents call an HTTPS endpoint of your business with a signed JSON request and use its JSON answer. ' +
      'Each request carries X-Titan-Timestamp and X-Titan-Signature: sha256=HMAC-SHA256(secret, "<timestamp>.<body>") in hex.',
    auth: { type: 'api_key', placement: 'signature' },
    settings: [{ name: 'url', label: 'Endpoint URL', type: 'url', required: true }],
    tools: [
      {
        name: 'call',
        description:
          "Send a request to the business's own system and read its answer: `action` says what is wanted (e.g. lookup_order), `data` holds the details.",
        input_schema: {
          type: 'object',
          properties: {
            action: { type: 'string', description: 'What is wanted, e.g. lookup_order' },
            data: { type: 'object', description: 'The details of the request', additionalProperties: true },
          },
          required: ['action'],
          additionalProperties: false,
        },
        http: { method: 'POST', url: '{settings.url}' },
      },
    ],
  }),
];

/** The operator's manifests; a file that does not hold valid manifests stops Titan at start, naming why. */
export function loadPluginManifests(file: string | undefined): TPluginManifest[] {
  if (!file) return [];
  const parsed = z.array(ZPluginManifest).safeParse(JSON.parse(readFileSync(file, 'utf8')));
  if (!parsed.success) throw new Error(`PLUGIN_MANIFESTS_FILE ${file}: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}
