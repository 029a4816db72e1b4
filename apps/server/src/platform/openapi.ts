// OpenAPI 3.1 generated from the route zod schemas, browsable at /api/docs.
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { markRoutesPublic } from './public-scope';
import { version } from './version';

export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Titan API',
        version,
        description:
          'Every answer is {status, message, result}. Errors use the same envelope; 400 answers map each field to its messages.',
      },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
        },
      },
    },
    transform: jsonSchemaTransform,
    transformObject: jsonSchemaTransformObject,
  });
  await app.register(async (scope) => {
    markRoutesPublic(scope);
    await scope.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });
  });
}
