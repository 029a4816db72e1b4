import websocket from '@fastify/websocket';
import type { FastifyPluginAsync } from 'fastify';
import { REALTIME_PATH } from '@titan/contracts';
import { RealtimeHub, type RealtimeDeps } from './realtime.hub';

export const realtimeRoutes: FastifyPluginAsync<{ deps: RealtimeDeps }> = async (app, { deps }) => {
  await app.register(websocket, { options: { maxPayload: 64 * 1024 } });
  const hub = new RealtimeHub(deps);
  hub.start();
  app.addHook('onClose', async () => hub.stop());
  // Authentication happens in the protocol's first message, so the upgrade itself is public.
  app.get(REALTIME_PATH, { websocket: true, config: { public: true } }, (socket) => hub.accept(socket));
};
