// User-visible strings of the journeys screens.
import type { TJourneyNodeType, TJourneyReentry, TJourneyStatus } from '@titan/contracts';

export const JOURNEYS_STRINGS = {
  title: 'Journeys',
  description: 'Automations that react to what customers do: a trigger, then waits, branches and sends.',
  newJourney: 'New journey',
  tableLabel: 'Journeys',
  columns: { name: 'Name', status: 'Status', version: 'Version', updated: 'Updated' },
  emptyTitle: 'No journeys yet',
  emptyText: 'Start one on an event your shop or app posts, then wait, branch and send.',
  loadFailed: 'Could not load the journeys.',
  statuses: { draft: 'Draft', live: 'Live', paused: 'Paused' } satisfies Record<TJourneyStatus, string>,
} as const;

export const STEP_TITLES: Record<TJourneyNodeType, string> = {
  trigger: 'Trigger',
  wait: 'Wait',
  branch: 'Branch',
  send: 'Send',
  agent: 'AI agent',
  update: 'Update customer',
  conversation: 'Conversation',
  webhook: 'Webhook',
  exit: 'Exit',
};

export const EDITOR_STRINGS = {
  back: 'Journeys',
  name: 'Name',
  defaultName: 'Untitled journey',
  reentry: 'Re-entry',
  reentries: {
    never: 'Once per customer',
    after_exit: 'Again after leaving',
    always: 'Every time',
  } satisfies Record<TJourneyReentry, string>,
  save: 'Save draft',
  saveVersion: 'Save new version',
  saved: 'Journey saved.',
  saveFailed: 'The journey was not saved: see the marked steps.',
  publish: 'Publish',
  published: 'Journey published: customers enter it from now on.',
  pause: 'Pause',
  paused: 'Journey paused.',
  unsavedBeforePublish: 'Save your changes before publishing.',
  version: (v: number, live: number | null) =>
    live === null ? `Version ${v}` : live === v ? `Version ${v} (live)` : `Version ${v} · live: ${live}`,
  addStep: 'Add step',
  addStepOf: (title: string) => `Add ${title.toLowerCase()} step`,
  steps: 'Steps',
  canvas: 'Journey canvas',
  loadingCanvas: 'Loading the canvas…',
  stepsHint:
    'Choose a step to configure it; link steps with “Then” in its panel or by dragging on the canvas.',
  noStepSelected: 'Choose a step to configure it.',
  graphErrors: 'This journey cannot be saved yet:',
  loadFailed: 'Could not load the journey.',
  counts: {
    entered: 'Entered',
    waiting: 'Waiting',
    passed: 'Passed',
    exited: 'Exited',
    failed: 'Failed',
  },
  countsOf: (c: { entered: number; waiting: number; passed: number; exited: number; failed: number }) =>
    `${c.entered} entered · ${c.waiting} waiting · ${c.passed} passed · ${c.exited} exited · ${c.failed} failed`,
  customersSummary: (c: { active: number; exited: number; failed: number }) =>
    `${c.active} in the journey · ${c.exited} finished · ${c.failed} failed`,
  countsUnavailable: 'The counts could not be read just now; they are read again every few seconds.',
  inFlightHeading: 'Customers on an earlier version',
  inFlight: (n: number) =>
    `${n} ${n === 1 ? 'customer is' : 'customers are'} still on an earlier version of this journey. They finish on it, unless you move them to a step of this version.`,
  moveTo: 'Move them to',
  move: 'Move',
  moving: 'Moving…',
  moved: (r: { moved: number; left: number }) =>
    `Moved ${r.moved} ${r.moved === 1 ? 'customer' : 'customers'}` +
    (r.left > 0 ? `; ${r.left} had a step running and stay where they are (move again in a moment).` : '.'),
  goalEvent: 'Goal event',
  goalEventHint: 'The event that counts as a conversion; leave empty for no goal.',
  goalDays: 'Within days',
  goalSummary: (g: { event: string; within_days: number; entered: number; converted: number }) =>
    `Goal ${g.event} within ${g.within_days} d: ${g.converted} of ${g.entered} converted` +
    (g.entered > 0 ? ` (${Math.round((100 * g.converted) / g.entered)}%)` : ''),
} as const;

export const PANEL_STRINGS = {
  heading: (title: string, id: string) => `${title} · ${id}`,
  remove: 'Remove step',
  then: 'Then',
  thenOf: (label: string) => `Then (${label})`,
  nowhere: 'Nowhere (the customer leaves)',
  exitLabels: { yes: 'yes', no: 'no', event: 'event came', timeout: 'timed out' } as Record<string, string>,
  kind: 'Kind',
  triggerKinds: { event: 'An event', segment: 'Entering a segment', date: 'A date field' },
  event: 'Event name',
  eventHint:
    'One of Titan’s events (list.joined, email.opened, conversation.unanswered.4h …) or one you post to POST /api/events/ (order.placed)',
  segmentId: 'Segment id',
  dateField: 'Date field',
  localTime: 'Local time (HH:MM)',
  waitKinds: { duration: 'For a time', until_event: 'Until an event', until_time: 'Until a time of day' },
  seconds: 'Seconds',
  timeoutSeconds: 'Timeout (seconds)',
  branchKinds: { condition: 'A condition', split: 'A random split' },
  ruleField: 'Field',
  ruleOp: 'Test',
  ruleValue: 'Value',
  ruleFieldHint: 'event.properties.plan, customer.fields.plan or customer.email',
  addRule: 'Add condition',
  removeRule: 'Remove condition',
  weights: 'Weights (comma separated)',
  channel: 'Channel',
  channels: { email: 'Email', sms: 'SMS', whatsapp: 'WhatsApp' },
  template: 'Template',
  noTemplate: 'Choose a template',
  whatsappTemplate: 'WhatsApp template',
  noWhatsappTemplates: 'No approved WhatsApp templates yet: sync them on the WhatsApp templates page.',
  whatsappVariable: (key: string) => `Variable {{${key}}}`,
  whatsappVariableHint: 'customer.name, customer.email, customer.phone, fields.<field>, or fixed text',
  from: 'From',
  body: 'SMS text',
  consent: 'Who may be reached',
  consents: { subscribed: 'Subscribed customers', legitimate_interest: 'Also those not yet asked' },
  fields: 'Set fields (one name=value a line)',
  addLists: 'Add to list',
  removeLists: 'Remove from list',
  addLabels: 'Add label',
  none: 'None',
  exitText: 'The customer leaves the journey here.',
  chatGroup: 'Chat group (for a new conversation)',
  anyGroup: 'No group',
  assignee: 'Assign to',
  nobody: 'Nobody',
  conversationText:
    'Takes the customer’s open conversation, or opens one in the chat group; then assigns it.',
  webhookUrl: 'Webhook URL',
  webhookText:
    'Titan POSTs the customer, the journey and the trigger event as JSON, with an idempotency-key header.',
} as const;

export const PATH_STRINGS = {
  heading: "A customer's path",
  customerId: 'Customer id',
  show: 'Show path',
  none: 'This customer has not entered the journey.',
  run: (i: number, v: number) => `Pass ${i} · version ${v}`,
  runStatus: { active: 'In the journey', exited: 'Finished', failed: 'Failed' },
  stepStatus: {
    pending: 'Pending',
    waiting: 'Waiting',
    passed: 'Passed',
    exited: 'Exited',
    failed: 'Failed',
  },
  due: (at: string) => `due ${at}`,
  clockSpeed: 'Clock speed (times faster)',
  test: 'Run a test',
  testStarted: 'Test started: the customer is in the journey.',
  testRun: (speed: number) => `Test at ${speed.toLocaleString('en')}×`,
  goalReached: (at: string) => `Goal reached ${at}`,
  loadFailed: 'Could not load the path.',
} as const;
