// The public CSAT answer (next-api.md "Team inbox"): the survey's token is its only key.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZCsatAnswer, ZCsatSurvey, ZCsatTokenParams, ZEnvelope, ZNoQuery } from '@titan/contracts';
import type { Db } from '../../db/client';
import { ok } from '../../platform/http';
import { answerCsatSurvey, findCsatSurvey } from './csat';

const tags = ['csat'];
const config = { public: true } as const;

export const csatRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.get(
    '/api/public/csat/:token/',
    {
      config,
      schema: {
        tags,
        params: ZCsatTokenParams,
        querystring: ZNoQuery,
        response: { 200: ZEnvelope(ZCsatSurvey) },
      },
    },
    async (request) => ok(await findCsatSurvey(db, request.params.token)),
  );
  app.post(
    '/api/public/csat/:token/',
    {
      config,
      schema: {
        tags,
        params: ZCsatTokenParams,
        body: ZCsatAnswer,
        response: { 200: ZEnvelope(ZCsatSurvey) },
      },
    },
    async (request) => ok(await answerCsatSurvey(db, request.params.token, request.body)),
  );
};
