import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZEnvelope, ZSaveWhatsappAccountRequest, ZWhatsappAccount } from '@titan/contracts';
import { ok } from '../../../platform/http';
import { businessOf } from '../../../platform/request-context';
import * as whatsapp from './whatsapp.account.service';

const tags = ['whatsapp'];
const manage = { business: true, permission: 'business.update' } as const;

export const whatsappAccountRoutes: FastifyPluginAsyncZod<{ deps: whatsapp.WhatsappDeps }> = async (
  app,
  { deps },
) => {
  app.get(
    '/api/whatsapp/account/',
    { config: manage, schema: { tags, response: { 200: ZEnvelope(ZWhatsappAccount) } } },
    async (request) => ok(await whatsapp.findAccount(deps, businessOf(request).id)),
  );
  app.put(
    '/api/whatsapp/account/',
    {
      config: manage,
      schema: { tags, body: ZSaveWhatsappAccountRequest, response: { 200: ZEnvelope(ZWhatsappAccount) } },
    },
    async (request) => ok(await whatsapp.saveAccount(deps, businessOf(request).id, request.body)),
  );
};
