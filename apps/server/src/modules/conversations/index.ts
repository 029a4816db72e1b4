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
export { applyMessageToConversations, toMessages } from './conversations.service';
