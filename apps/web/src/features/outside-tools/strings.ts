// User-visible strings of Settings → MCP servers and Settings → Plugins, and their callback pages.
import type { TConnectionStatus } from '@titan/contracts';

export const OUTSIDE_TOOLS_STRINGS = {
  status: {
    pending_oauth: 'Waiting for authorization',
    connected: 'Connected',
    expired: 'Expired',
    error: 'Error',
  } satisfies Record<TConnectionStatus, string>,
  readOnly: 'Your role does not allow changing this. Ask an owner or admin.',
  remove: 'Remove',
  connect: 'Connect',
  reconnect: 'Reconnect',
  connecting: 'Connecting…',
  tools: (n: number) => (n === 1 ? '1 tool' : `${n} tools`),
  noTools: 'No tools listed yet.',
  loadFailed: 'The list could not be loaded.',
  backToMcp: 'Back to MCP servers',
  backToPlugins: 'Back to plugins',
  callbackWorking: 'Finishing the connection…',
  callbackDenied: (reason: string) => `The authorization was not given: ${reason}`,
  callbackMissing:
    'This page expects the code and state the authorization server sends back. Connect again from Settings.',
  connectedToast: (name: string) => `${name} is connected.`,

  mcp: {
    title: 'MCP servers',
    description:
      'Connect your own systems (orders, bookings, CRM) as MCP servers over Streamable HTTP: their tools become available to your agents.',
    empty: 'No MCP servers yet.',
    addTitle: 'Add an MCP server',
    name: 'Name',
    url: 'Server URL',
    urlHint: 'The Streamable HTTP endpoint, e.g. https://mcp.example.com/mcp',
    auth: 'Authorization',
    authOptions: [
      { value: 'oauth', label: 'OAuth (sign in at the server)' },
      { value: 'bearer', label: 'Bearer token' },
      { value: 'none', label: 'None' },
    ],
    token: 'Bearer token',
    oauthClient: 'Client id',
    oauthClientHint: 'Only if the server gave you a client id for Titan; otherwise Titan registers itself.',
    add: 'Add server',
    adding: 'Adding…',
    added: (name: string) => `${name} was added.`,
    refreshTools: 'Refresh tools',
    removeTitle: (name: string) => `Remove ${name}?`,
    removeDescription: 'Agents using its tools will no longer be offered them.',
    removed: (name: string) => `${name} was removed.`,
  },

  plugins: {
    title: 'Plugins',
    description: 'Connect integrations whose tools your agents may use.',
    catalogue: 'Available plugins',
    connections: 'Connected plugins',
    empty: 'No plugins connected yet.',
    unavailable: 'Not available on this server',
    connectTitle: (name: string) => `Connect ${name}`,
    name: 'Name',
    apiKey: 'API key',
    connectAction: 'Connect',
    secretTitle: 'Signing secret — shown once',
    secretHint:
      'Your endpoint checks X-Titan-Signature: sha256=HMAC-SHA256(secret, "<X-Titan-Timestamp>.<body>"). Keep it now: Titan will not show it again.',
    removeTitle: (name: string) => `Remove ${name}?`,
    removeDescription: 'Agents using its tools will no longer be offered them.',
    removed: (name: string) => `${name} was removed.`,
    cancel: 'Cancel',
  },
} as const;
