// Templates, send-template, logs with CSV, and the balance.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { WhatsappDeps } from './whatsapp.outbound';

export const whatsappTemplatesRoutes: FastifyPluginAsyncZod<{ deps: WhatsappDeps }> = async () => {};
