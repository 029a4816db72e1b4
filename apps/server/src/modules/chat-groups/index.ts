// The public face of the chat-groups module: what other modules and the app's composition may use.
// Everything else in modules/chat-groups/ is private to it (eslint: titan-server/module-faces).

export { type ChatGroupRow, findGroup, findGroupBySlug } from './chat-groups.repository';
export { chatGroupRoutes } from './chat-groups.routes';
export {
  aiHeldChannels,
  findAiResponderSettings,
  findAssignmentRules,
  findChatGroupMemberIds,
  moveAssignmentCursor,
  toChatGroup,
} from './chat-groups.service';
export { availabilityAt, closedPeriodKey, isOpenAt, nextOpening } from './business-hours';
