// The journeys module's face: `emitCustomerEvents`, `emitSendStatusEvents` and `emitEmailEngagementEvents` (Titan's facts as
// customer events, called inside the emitting module's transaction), the routes, the engine's loop and its deps.
export {
  emitCustomerEvents,
  emitEmailEngagementEvents,
  emitSendStatusEvents,
  emitSentSendEvents,
  type TitanCustomerEvent,
} from './journeys.service';
export { journeyRoutes } from './journeys.routes';
export { drainJourneys, JOURNEYS_LOOP, runJourneyPass } from './journeys.engine';
export {
  JOURNEY_DEFAULTS,
  type JourneyCustomer,
  type JourneyDeps,
  type JourneyPorts,
  type RecordedSend,
} from './journeys.deps';
