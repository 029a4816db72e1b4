// The public face of the conversations module: what other modules and the app's composition may use.
// Everything else in modules/conversations/ is private to it (eslint: titan-server/module-faces).

export {
  applyWaMessageStatuses,
  deleteConversationIfEmpty,
  findConversation,
  findLatestConversationOf,
  findLatestConversationsOf,
  findWaMessage,
  type InboxScope,
  insertConversation,
  insertInboundWaMessages,
  insertOpenedConversations,
  insertWaMessage,
  type MessageArrival,
  scopeConditions,
} from './conversations.repository';
export { conversationRoutes } from './conversations.routes';
export {
  applyMessageToConversations,
  businessScope,
  conversationMetrics,
  countUnansweredConversations,
  deliverTitanSend,
  findConversation as findConversationView,
  findCustomerConversations,
  findMessages,
  type InboxDeps,
  receiveCustomerMessage,
  startConversation,
  toMessages,
} from './conversations.service';
export { conversationTopics } from './conversations.topics';
export { scopeOf } from './inbox-scope';
export { toPublicConversation, toPublicMessage } from './public-view';
