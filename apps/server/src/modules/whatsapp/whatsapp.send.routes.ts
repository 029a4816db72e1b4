// Sending: free-form messages, the 24-hour window, media upload and download, mark-as-read.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { WhatsappDeps } from './whatsapp.outbound';

export const whatsappSendRoutes: FastifyPluginAsyncZod<{ deps: WhatsappDeps }> = async () => {};
