// The public face of the sends module: what other modules and the app's composition may use.
// Everything else in modules/sends/ is private to it (eslint: titan-server/module-faces).

export { exportFileName, exportSendLogs, findCustomerSends, findSendLog, findSendLogs } from './sends.logs';
export {
  detachConversation,
  findSendById,
  MARKETING_CAUSES,
  marketingSendCounts,
  type SendCause,
} from './sends.repository';
export {
  type CappedCustomers,
  frequencyCapForRecording,
  frequencyCapped,
  holdFrequencyCapLocks,
} from './sends.frequency-cap';
export { type BestEvent, deleteOrphanEvents, type ProviderEvent } from './sends.events.repository';
export { usageByCategory } from './sends.logs.repository';
export { customerSendsWithEvents, deleteCustomerSends } from './sends.batches.repository';
export {
  campaignBehaviourCondition,
  campaignLinks,
  campaignSendsOf,
  campaignSeries,
  campaignTotals,
  type CampaignSendTotals,
} from './sends.metrics.repository';
export { sendLogRoutes } from './sends.routes';
export {
  applyEvents,
  cancelQueuedSends,
  cancelQueuedSendsOf,
  claim,
  claimMany,
  countSendsByCause,
  createMany,
  createQueued,
  emailMetrics,
  FINAL_STATUSES,
  findByIdempotencyKey,
  findUnpricedSends,
  lockProviderMessages,
  type ObservedEvent,
  type QueuedSend,
  reapplyEvents,
  recordAccepted,
  recordAcceptedMany,
  recordCosts,
  recordFailed,
  recordOnce,
  recordSendEvent,
  recordSendEvents,
  recoverSends,
  retryLater,
  runClaimedSends,
  sendCountsByDay,
  type SendRow,
} from './sends.service';
