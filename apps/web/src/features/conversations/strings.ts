// User-visible strings of the conversations inbox (spec sections 2, 4, 5 and 8), verbatim where the
// spec gives them; tests and components share them from here.
import { FILE_TOO_LARGE_MESSAGE, type TChannel, type TConversationStatus } from '@titan/contracts';

export const DELIVERY_STATUS_LABELS = {
  accepted: 'Accepted',
  sent: 'Sent',
  delivered: 'Delivered',
  read: 'Read',
  failed: 'Failed',
} as const;

export const CONVERSATIONS_STRINGS = {
  title: 'Conversations',
  embedSettings: 'Embed settings',

  // Filters (spec section 2).
  filter: 'Filter',
  filterActiveBadge: 'Active',
  filtersTitle: 'Filters',
  clearAll: 'Clear all',
  applyFilters: 'Apply Filters',
  status: 'Status',
  channel: 'Channel',
  readStatus: 'Read Status',
  businessResponse: 'Business Response',
  createdAfter: 'Created Date After',
  createdBefore: 'Created Date Before',
  // The spec's filter has lastMessageAfter / lastMessageBefore but names no labels for them.
  lastMessageAfter: 'Last Message After',
  lastMessageBefore: 'Last Message Before',
  all: 'All',
  active: 'Active',
  resolved: 'Resolved',
  whatsapp: 'WhatsApp',
  titanMessage: 'Titan Message',
  read: 'Read',
  unread: 'Unread',
  replied: 'Replied',
  notReplied: 'Not Replied',
  pickDate: 'Pick a date',
  clearDate: (label: string) => `Clear ${label}`,

  // List rows.
  anonymousCustomer: 'Anonymous Customer',
  unreadDot: 'Unread',
  statusLabels: { active: 'Active', resolved: 'Resolved' } satisfies Record<TConversationStatus, string>,
  channelBadges: { titan_message: 'Titan', whatsapp: 'WhatsApp' } satisfies Record<TChannel, string>,
  yesterday: 'Yesterday',
  today: 'Today',
  noConversations: 'No conversations found',
  clearAllFilters: 'Clear all filters',
  loadingMore: 'Loading more conversations',
  listFailed: 'Something went wrong while fetching conversations',

  listRegion: 'Conversation list',
  paneRegion: 'Conversation',

  // Conversation pane.
  noSelection: 'No conversation selected',
  noSelectionText: 'Select a conversation from the list to view messages',
  back: 'Back to conversations',
  conversationActions: 'Conversation actions',
  markResolved: 'Mark as resolved',
  markActive: 'Mark as active',
  marked: (status: TConversationStatus) => `Conversation marked ${status}`,
  group: 'Group',
  loadOlder: 'Load older messages',
  noMessages: 'No messages yet.',
  messagesLabel: 'Messages',

  // Composer.
  placeholder: 'Type a message...',
  messageLabel: 'Message',
  attach: 'Attach a file',
  send: 'Send',
  sendAttachmentTitle: 'Send Attachment',
  sendAttachmentText: 'Are you sure you want to send the file?',
  cancel: 'Cancel',
  sending: 'Sending...',
  uploadSucceeded: 'File uploaded successfully',
  uploadFailed: 'Failed to upload file. Please try again.',
  sendFailed: 'Failed to send message. Please try again.',
  fileTooLarge: FILE_TOO_LARGE_MESSAGE,
  whatsappAttach: { image: 'Image', video: 'Video', audio: 'Audio', document: 'Document' },
  removeAttachment: (name: string) => `Remove ${name}`,
  uploadingAttachment: (name: string) => `Uploading ${name}`,
  whatsappUploadFailed: 'Unable to upload file',

  // Replies (WhatsApp context).
  reply: 'Reply',
  replyTo: (name: string) => `Reply to ${name}`,
  replyingTo: (name: string) => `Replying to ${name}`,
  cancelReply: 'Cancel reply',
  quotedMessage: 'Replied message',

  // The 24-hour window and templates.
  windowClosed: 'The 24-hour window has closed. Send an approved template to restart the conversation.',
  sendTemplateRegion: 'Send a template',
  template: 'Template',
  chooseTemplate: 'Choose a template',
  templateOption: (name: string, language: string) => `${name} (${language})`,
  headerParameter: (name: string) => `Header {{${name}}}`,
  bodyParameter: (name: string) => `Body {{${name}}}`,
  buttonParameter: (text: string) => `Link of the “${text}” button`,
  headerLink: { image: 'Header image URL', video: 'Header video URL', document: 'Header document URL' },
  preview: 'Preview',
  sendTemplate: 'Send template',
  noTemplates: 'No approved templates yet. Sync your templates from WhatsApp first.',
  openTemplates: 'Open templates',
  templatesFailed: 'The templates could not be loaded.',
  retry: 'Try again',

  // Message rendering.
  attachmentAdded: 'Attachment Added',
  unsupported: 'Unsupported message type',
  mediaFailed: 'Unable to load image, video or document',
  templateHeaderImage: 'Template header image',
  deliveryStatus: DELIVERY_STATUS_LABELS,
  templateButtons: 'Template buttons',
  failedReason: 'Why it failed',
  errorCode: (code: string) => `Error ${code}`,
} as const;
