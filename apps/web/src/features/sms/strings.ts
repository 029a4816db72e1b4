// User-visible strings of the SMS settings tab: the Twilio account, the test text and the webhook
// URLs to paste into Twilio. Tests and components share them from here.
export const SMS_STRINGS = {
  settings: {
    title: 'Twilio account',
    description:
      'Connect your Twilio account to send text messages from Titan: agents, bulk sends and the send-sms API use it.',
    notConnected: 'No SMS account is connected yet.',
    accountSid: 'Account SID',
    accountSidHint: 'Twilio Console → Account info. Starts with AC.',
    authToken: 'Auth Token',
    authTokenHint: 'Twilio Console → Account info. Titan also checks every webhook from Twilio with it.',
    sendFrom: 'Send from',
    sendFromOptions: { number: 'A phone number', service: 'A Messaging Service' },
    fromNumber: 'Phone number',
    fromNumberHint: 'An SMS-capable number of this account, in international format, e.g. +14155550100.',
    messagingServiceSid: 'Messaging Service SID',
    messagingServiceSidHint: 'Twilio Console → Messaging → Services. Starts with MG.',
    apiKeySid: 'API key SID',
    apiKeySidHint: 'Optional: call Twilio with an API key instead of the Auth Token. Starts with SK.',
    apiKeySecret: 'API key secret',
    optional: '(optional)',
    stored: 'Stored — leave empty to keep',
    connect: 'Connect account',
    connecting: 'Checking with Twilio…',
    save: 'Save changes',
    saving: 'Checking with Twilio…',
    connected: 'Twilio account connected',
    saved: 'SMS settings saved',
    readOnly: 'Only owners and admins can connect or change the SMS account.',
    loadFailed: 'The SMS settings could not be loaded.',
  },

  webhooks: {
    title: 'Webhooks',
    pending: 'Connect the account to get the webhook URLs to paste into Twilio.',
    instruction:
      'Paste these into Twilio: the incoming-message URL on your number (or Messaging Service), as an HTTP POST webhook. Titan sends the status callback URL with every message.',
    inbound: 'A message comes in',
    status: 'Status callback URL',
    copyInbound: 'Copy incoming-message URL',
    copyStatus: 'Copy status callback URL',
  },

  test: {
    title: 'Send a test message',
    description: 'Sends one text from the connected account. It appears in Event logs → SMS.',
    to: 'To',
    toHint: 'A mobile number in international format, e.g. +14155550100.',
    body: 'Message',
    counter: (characters: number, segments: number, encoding: string) =>
      `${characters} ${characters === 1 ? 'character' : 'characters'} · ${segments} ${segments === 1 ? 'segment' : 'segments'} (${encoding})`,
    send: 'Send test message',
    sending: 'Sending…',
    sent: 'Test message queued',
    viewLog: 'View in event logs',
  },
} as const;
