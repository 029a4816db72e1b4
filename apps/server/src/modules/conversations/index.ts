// The public face of the conversations module: what other modules and the app's composition may use.
// Everything else in modules/conversations/ is private to it (eslint: titan-server/module-faces).

export {
  applyWaMessageStatuses,
  customerConversationsWithMessages,
  deleteConversationIfEmpty,
  deleteCustomerConversations,
  findConversation,
  findAwaitingReply,
  findConversationOfMessageIds,
  findLatestConversationOf,
  findLatestConversationsOf,
  findWaMessage,
  insertConversation,
  insertWaMessage,
  type MessageArrival,
} from './conversations.repository';
export { conversationRoutes } from './conversations.routes';
export {
  AI_REPLY_ERRORS,
  type AiHeldConversation,
  type AiWhatsappSender,
  findAiHeldConversation,
  handOffFromAi,
  sendAiReply,
} from './conversations.service';
export {
  type ChannelReplier,
  type ChannelReplies,
  findEmailThread,
  markReplyFailed,
  replyThread,
  SUBJECT_THREAD_DAYS,
  type PreparedReply,
  receiveChannelMessage,
  recordChannelActivity,
  type ReplyTarget,
} from './channel-messages';
export {
  announceOpenedConversation,
  applyMessageToConversations,
  insertInboundWaMessages,
  insertOpenedConversations,
  conversationMetrics,
  serviceLevelMetrics,
  countUnansweredConversations,
  deliverTitanSend,
  findConversation as findConversationView,
  findCustomerConversations,
  findMessages,
  type InboxDeps,
  loadChangedMessages,
  loadChangedRow,
  loadConversationsByIds,
  loadConversationHeads,
  type ConversationHead,
  openConversation,
  receiveCustomerMessage,
  startConversation,
  updateConversation,
  toMessages,
} from './conversations.service';
export { conversationTopics } from './conversations.topics';
export { defineSnoozeJob, wakeSnoozedConversations } from './snooze';
export { searchRoutes } from './search/search.routes';
export { typingSource } from './typing';
export { assignWaiting, AutoAssigner, claimBatch } from './auto-assign';
export { AutoResponder, replyIfAway } from './auto-responder';
export { answerCsatSurvey, askForRating, findCsatSurvey } from './csat';
export { csatRoutes } from './csat.routes';
export { alertSlaBreaches, defineSlaWatchJob } from './sla-watch';
export { toPublicConversation, toPublicMessage } from './public-view';
