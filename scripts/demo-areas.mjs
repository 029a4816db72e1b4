// `npm run demo`, every area: beyond the WhatsApp inbox (demo-seed.mjs), a chat-widget
// conversation, email templates, a list of customers who subscribed to mail, and an AI agent with
// a finished run (a dry run against tools/llm-sim: what it would send, nothing sent). Each step
// only does what is missing, so a restart keeps what was made. Failures become warnings.

const TEMPLATES = [
  {
    name: 'Welcome back',
    subject: 'We saved you a seat, {{ customer.name }}',
    format: 'mjml',
    content:
      '<mjml><mj-body><mj-section><mj-column><mj-text>Hello {{ customer.name }}, it has been a while. Come and see what is new this season.</mj-text></mj-column></mj-section></mj-body></mjml>',
  },
  {
    name: 'Spring offer',
    subject: 'Spring is here, {{ customer.name }}',
    format: 'html',
    content: '<p>Hello {{ customer.name }}, our spring offer is out: 10% off your next visit.</p>',
  },
];
const LIST = 'Newsletter subscribers';
const SUBSCRIBERS = [
  { name: 'Grace Hopper', email: 'grace@demo.test' },
  { name: 'Alan Turing', email: 'alan@demo.test' },
  { name: 'Katherine Johnson', email: 'katherine@demo.test' },
];
const AGENT = 'Win-back (demo)';
const WIDGET_VISITOR = 'Ada Lovelace';

async function api(titanUrl, headers, method, path, body) {
  const res = await fetch(`${titanUrl}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const json = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(`${method} ${path}: HTTP ${res.status} ${json.message ?? ''}`.trim());
  return json.result;
}

/** Runs `step`, turning a failure into a warning so the rest of the demo still starts. */
async function step(name, warn, fn) {
  try {
    return await fn();
  } catch (err) {
    warn(`${name}: ${err.message}`);
    return null;
  }
}

export async function seedAreas({ titanUrl, headers, businessCode, llm, log = () => {}, warn = () => {} }) {
  const call = (method, path, body) => api(titanUrl, headers, method, path, body);
  const made = { templates: 0, subscribers: 0, widgetConversation: false, agentRun: null };

  // The AI model the agents and AI templates use: tools/llm-sim.
  if (llm)
    await step('the AI model could not be set', warn, () =>
      call('PUT', '/api/config/llm/', { base_url: llm.baseUrl, model: llm.model, api_key: llm.apiKey }),
    );

  const templates = await step('email templates', warn, async () => {
    const have = await call('GET', '/api/template/');
    const all = Array.isArray(have) ? have : (have.results ?? []);
    for (const t of TEMPLATES) {
      if (all.some((h) => h.name === t.name)) continue;
      all.push(await call('POST', '/api/template/', t));
      made.templates++;
    }
    return all;
  });

  const list = await step('the subscribers list', warn, async () => {
    const lists = await call('GET', '/api/business/customer-lists/?page_size=100');
    const found = (lists.results ?? lists).find((l) => l.name === LIST);
    if (found) return found;
    const ids = [];
    for (const c of SUBSCRIBERS) {
      const res = await fetch(`${titanUrl}/api/public/customers/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ business_code: businessCode, ...c }),
      });
      if (!res.ok) throw new Error(`POST /api/public/customers/: HTTP ${res.status}`);
      const id = (await res.json()).result.customer.id;
      // They agreed to the newsletter: agents write only to customers who subscribed.
      await call('PUT', `/api/business/customer-directory/${id}/`, { email_status: 'subscribed' });
      ids.push(id);
      made.subscribers++;
    }
    const created = await call('POST', '/api/business/customer-lists/', { name: LIST, kind: 'static' });
    await call('POST', `/api/business/customer-lists/${created.id}/members/`, { customer_ids: ids });
    return created;
  });

  await step('the chat-widget conversation', warn, async () => {
    const open = await call('GET', '/api/msg/conversations/?channel__in=titan_message&page_size=1');
    if ((open.count ?? open.results?.length ?? 0) > 0) return;
    const visitor = await fetch(`${titanUrl}/api/public/customers/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ business_code: businessCode, name: WIDGET_VISITOR }),
    });
    if (!visitor.ok) throw new Error(`POST /api/public/customers/: HTTP ${visitor.status}`);
    const auth = { authorization: `Visitor ${(await visitor.json()).result.token}` };
    const started = await api(titanUrl, auth, 'POST', '/api/public/conversations/', {
      title: 'Question about opening hours',
    });
    await api(titanUrl, auth, 'POST', `/api/public/conversations/${started.id}/messages/`, {
      message_type: 'text',
      content: 'Hi! Are you open on Sunday afternoons?',
    });
    made.widgetConversation = true;
  });

  const template = templates?.find((t) => t.name === TEMPLATES[0].name);
  if (list && template)
    await step('the demo agent', warn, async () => {
      const agents = await call('GET', '/api/agents/?page_size=100');
      let agent = (agents.results ?? agents).find((a) => a.name === AGENT);
      if (!agent) {
        const [suggestion] = await call('GET', '/api/agents/get-suggested-agents/');
        agent = await call('POST', '/api/agents/', {
          name: AGENT,
          config: {
            ...suggestion.config,
            audience: { list_ids: [list.id] },
            channels: [{ channel: 'email', template_id: template.id, from: 'hello@demo-shop.test' }],
            // A dry run: the run log shows what it would send, and nothing leaves.
            send_mode: 'dry_run',
            quiet_hours: null,
          },
        });
      }
      const runs = await call('GET', `/api/agents/${agent.id}/runs/?kind=real&page_size=1`);
      if ((runs.count ?? 0) > 0) return;
      const started = await call('POST', `/api/agents/${agent.id}/run-now/`, {});
      const runId = started.runs[0].id;
      const deadline = Date.now() + 60_000;
      for (;;) {
        const run = await call('GET', `/api/agents/${agent.id}/runs/${runId}/`);
        if (!['queued', 'running'].includes(run.status)) {
          made.agentRun = run.status;
          break;
        }
        if (Date.now() > deadline) throw new Error('its run did not finish within 60 s');
        await new Promise((r) => setTimeout(r, 500));
      }
    });

  log(
    `areas: ${made.templates} templates and ${made.subscribers} subscribers added` +
      `${made.widgetConversation ? ', a chat-widget conversation' : ''}` +
      `${made.agentRun ? `, the demo agent's run ${made.agentRun}` : ''}`,
  );
  return made;
}
