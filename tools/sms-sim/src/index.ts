// A local Twilio Programmable Messaging API for Titan's tests, the demo and browser tests: the
// Messages resource, signed status callbacks, inbound texts with opt-out keywords, a phone page.
export {
  startSmsSim,
  type ApiRequest,
  type CallbackRecord,
  type SimAccount,
  type SimMessage,
  type SimOptions,
  type SimSwitches,
  type SmsSim,
} from './sim';
export { MAGIC_TO, segmentsOf, signatureFor } from './twilio';
