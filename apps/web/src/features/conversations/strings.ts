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
  palette: {
    title: 'Go to',
    description: 'Find conversations, customers and screens.',
    placeholder: 'Search conversations, customers and screens…',
    empty: 'Nothing found.',
    conversations: 'Conversations',
    customers: 'Customers',
    screensHeading: 'Screens',
    untitled: 'Unnamed',
    screens: {
      dashboard: 'Dashboard',
      inbox: 'Inbox',
      directory: 'Customers',
      lists: 'Lists and segments',
      campaigns: 'Campaigns',
      templates: 'Templates',
      agents: 'Agents',
      eventLogs: 'Event logs',
      settings: 'Settings',
    },
  },
  shortcuts: {
    title: 'Keyboard shortcuts',
    description: 'In the inbox, when no field has the focus.',
    next: 'Next conversation',
    previous: 'Previous conversation',
    reply: 'Reply',
    note: 'Write a private note',
    assignMe: 'Assign to me',
    resolve: 'Resolve',
    help: 'Show these shortcuts',
    palette: 'Find conversations, customers and screens (Cmd-K on a Mac)',
    assignedToYou: 'Assigned to you',
    resolved: 'Conversation resolved',
  },
  sla: {
    breached: 'SLA missed',
    replyIn: (left: string) => `Reply in ${left}`,
    resolveIn: (left: string) => `Resolve in ${left}`,
  },
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
  email: 'Email',
  sms: 'SMS',
  /** An email conversation whose latest mail scored as spam. */
  spamBadge: 'Spam',
  mmsNote: (characters: number) =>
    `${characters} ${characters === 1 ? 'character' : 'characters'} · with a picture: one MMS (billed as an MMS, not per segment)`,
  attachPicture: 'Attach a picture (MMS)',
  mmsType: 'MMS takes a JPEG, PNG or GIF picture.',
  mmsTooLarge: 'An MMS picture is at most 5 MB.',
  smsCounter: (characters: number, segments: number, encoding: string) =>
    `${characters} ${characters === 1 ? 'character' : 'characters'} · ${segments} ${segments === 1 ? 'segment' : 'segments'} (${encoding})`,
  read: 'Read',
  unread: 'Unread',
  replied: 'Replied',
  notReplied: 'Not Replied',
  pickDate: 'Pick a date',
  clearDate: (label: string) => `Clear ${label}`,

  // List rows.
  anonymousCustomer: 'Anonymous Customer',
  unreadDot: 'Unread',
  statusLabels: { active: 'Active', resolved: 'Resolved', snoozed: 'Snoozed' } satisfies Record<
    TConversationStatus,
    string
  >,
  channelBadges: {
    titan_message: 'Titan',
    whatsapp: 'WhatsApp',
    email: 'Email',
    sms: 'SMS',
  } satisfies Record<TChannel, string>,
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
  // The row's preview of the last message: who wrote it, when not the customer.
  previewSenders: { staff: 'Team', agent: 'AI agent', system: 'Titan' },
  /** The AI first responder's answers and handoff notes (issue 33). */
  aiAssistant: 'AI assistant',
  previewFile: 'File',
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
  windowOpen: (minutes: number) => {
    const h = Math.floor(minutes / 60);
    const m = minutes % 60;
    const left = h > 0 ? (m > 0 ? `${h} h ${m} min` : `${h} h`) : `${m} min`;
    return `24-hour window open: closes in ${left}. After that, only templates can be sent.`;
  },
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
  copilot: {
    suggest: 'Suggest a reply',
    summarize: 'Summarize',
    summaryLabel: 'Summary',
    closeSummary: 'Close the summary',
    sources: 'From:',
    failed: 'The AI could not answer. Try again.',
  },
  /** A staff reply turned into a draft help-centre article (issue 33). */
  replyToArticle: {
    action: 'Turn into an article',
    created: 'Draft article created:',
    open: (title: string) => `Open “${title}”`,
    failed: 'The article could not be drafted. Try again.',
  },
  /** The copilot's Ask box in the side panel: a question answered from the knowledge base. */
  ask: {
    title: 'Ask the knowledge base',
    description: 'A question of yours, answered from your published articles and this conversation.',
    label: 'Your question',
    placeholder: 'e.g. How long do refunds take?',
    submit: 'Ask',
    answerLabel: 'Answer',
    sources: 'Sources:',
    noSources: 'No article was used.',
    noMatches: 'No published article matches the question.',
    failed: 'The AI could not answer. Try again.',
  },
  /** Staff's rating of an AI first responder answer (issue 33). */
  aiRating: {
    label: 'Rate this AI answer',
    good: 'Good answer',
    bad: 'Bad answer',
    ratedGood: 'Rated good',
    ratedBad: 'Rated bad',
    reason: 'What was wrong? (optional)',
    reasonPlaceholder: 'e.g. It should have asked for the order number.',
    save: 'Save rating',
    cancel: 'Cancel',
    undo: 'Remove rating',
    saved: 'Rating saved.',
    failed: 'The rating could not be saved. Try again.',
  },
} as const;
