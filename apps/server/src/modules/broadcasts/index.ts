// The public face of the broadcasts module: what other modules and the app's composition may use.
// Everything else in modules/broadcasts/ is private to it (eslint: titan-server/module-faces).

export { broadcastRoutes } from './broadcasts.routes';
export {
  type AddressedBatch,
  type AddressedOutcome,
  type AddressedSends,
  queueAddressedSends,
  recordAddressedSends,
} from './broadcasts.recipients';
export {
  type BroadcastChannel,
  type BroadcastDeps,
  broadcastSendKey,
  consentSkipOf,
  defineBroadcastQueues,
  feedBroadcast,
  findBroadcast,
  finishCampaignBroadcast,
  openCampaignBroadcast,
  stopCampaignBroadcast,
  sharedPerBroadcast,
  startBroadcast,
} from './broadcasts.service';
