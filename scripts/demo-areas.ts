// `npm run demo`, every area: beyond the WhatsApp inbox (demo-seed.mjs), a chat-widget
// conversation, email templates, a list of customers who subscribed to mail, an AI agent with a
// finished run (a dry run against tools/llm-sim: what it would send, nothing sent) and a campaign
// draft to that list. Made through the typed client (@titan/client), as any integration would, so
// the demo breaks at compile time when the API it relies on changes. Each step only does what is
// missing, so a restart keeps what was made. Failures become warnings.
import { createTitanClient, unwrap, type TitanApi } from '@titan/client';

const TEMPLATES = [
  {
    name: 'Welcome back',
    subject: 'We saved you a seat, {{ customer.name }}',
    format: 'mjml' as const,
    content:
      '<mjml><mj-body><mj-section><mj-column><mj-text>Hello {{ customer.name }}, it has been a while. Come and see what is new this season.</mj-text></mj-column></mj-section></mj-body></mjml>',
  },
  {
    name: 'Spring offer',
    subject: 'Spring is here, {{ customer.name }}',
    format: 'html' as const,
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
const CAMPAIGN = 'Spring offer (demo draft)';
const WIDGET_VISITOR = 'Ada Lovelace';

type SeedOptions = {
  titanUrl: string;
  /** The owner's session: `Bearer` access token, and the business to act in. */
  accessToken: string;
  businessCode: string;
  llm?: { baseUrl: string; model: string; apiKey: string } | null;
  log?: (text: string) => void;
  warn?: (text: string) => void;
};

/** Runs `fn`, turning a failure into a warning so the rest of the demo still starts. */
async function step<T>(name: string, warn: (text: string) => void, fn: () => Promise<T>): Promise<T | null> {
  try {
    return await fn();
  } catch (err) {
    warn(`${name}: ${(err as Error).message}`);
    return null;
  }
}

/** A visitor of the business's widget (the public API), as a client of its own. */
async function visitor(titanUrl: string, businessCode: string, who: { name: string; email?: string }) {
  const open = createTitanClient({ baseUrl: titanUrl });
  const made = await unwrap(
    open.POST('/api/public/customers/', { body: { business_code: businessCode, ...who } }),
  );
  return {
    id: made.customer.id,
    api: createTitanClient({ baseUrl: titanUrl, headers: { authorization: `Visitor ${made.token}` } }),
  };
}

export async function seedAreas({
  titanUrl,
  accessToken,
  businessCode,
  llm,
  log = () => {},
  warn = () => {},
}: SeedOptions) {
  const api: TitanApi = createTitanClient({ baseUrl: titanUrl, accessToken, businessCode });
  const made = {
    templates: 0,
    subscribers: 0,
    widgetConversation: false,
    agentRun: null as string | null,
    campaign: false,
  };

  // The AI model the agents and AI templates use: tools/llm-sim.
  if (llm)
    await step('the AI model could not be set', warn, () =>
      unwrap(
        api.PUT('/api/config/llm/', {
          body: { base_url: llm.baseUrl, model: llm.model, api_key: llm.apiKey },
        }),
      ),
    );

  const templates = await step('email templates', warn, async () => {
    const all = [...(await unwrap(api.GET('/api/template/')))];
    for (const t of TEMPLATES) {
      if (all.some((h) => h.name === t.name)) continue;
      all.push(await unwrap(api.POST('/api/template/', { body: t })));
      made.templates++;
    }
    return all;
  });

  const list = await step('the subscribers list', warn, async () => {
    const lists = await unwrap(
      api.GET('/api/business/customer-lists/', { params: { query: { page_size: 100 } } }),
    );
    const found = lists.results.find((l) => l.name === LIST);
    if (found) return found;
    const ids: number[] = [];
    for (const c of SUBSCRIBERS) {
      const { id } = await visitor(titanUrl, businessCode, c);
      // They agreed to the newsletter: agents and campaigns write only to customers who subscribed.
      await unwrap(
        api.PUT('/api/business/customer-directory/{id}/', {
          params: { path: { id } },
          body: { email_status: 'subscribed' },
        }),
      );
      ids.push(id);
      made.subscribers++;
    }
    const created = await unwrap(
      api.POST('/api/business/customer-lists/', { body: { name: LIST, kind: 'static' } }),
    );
    await unwrap(
      api.POST('/api/business/customer-lists/{id}/members/', {
        params: { path: { id: created.id } },
        body: { customer_ids: ids },
      }),
    );
    return created;
  });

  await step('the chat-widget conversation', warn, async () => {
    const open = await unwrap(
      api.GET('/api/msg/conversations/', {
        params: { query: { channel__in: 'titan_message', page_size: 1 } },
      }),
    );
    if (open.count > 0) return;
    const { api: widget } = await visitor(titanUrl, businessCode, { name: WIDGET_VISITOR });
    const started = await unwrap(
      widget.POST('/api/public/conversations/', { body: { title: 'Question about opening hours' } }),
    );
    await unwrap(
      widget.POST('/api/public/conversations/{id}/messages/', {
        params: { path: { id: started.id } },
        body: { message_type: 'text', content: 'Hi! Are you open on Sunday afternoons?' },
      }),
    );
    made.widgetConversation = true;
  });

  const template = templates?.find((t) => t.name === TEMPLATES[0]!.name);
  if (list && template)
    await step('the demo agent', warn, async () => {
      const agents = await unwrap(api.GET('/api/agents/'));
      let agent = agents.find((a) => a.name === AGENT);
      if (!agent) {
        const [suggestion] = await unwrap(api.GET('/api/agents/get-suggested-agents/'));
        if (!suggestion) throw new Error('no suggested agent to start from');
        agent = await unwrap(
          api.POST('/api/agents/', {
            body: {
              name: AGENT,
              config: {
                ...suggestion.config,
                audience: { list_ids: [list.id] },
                channels: [{ channel: 'email', template_id: template.id, from: 'hello@demo-shop.test' }],
                // A dry run: the run log shows what it would send, and nothing leaves.
                send_mode: 'dry_run',
                quiet_hours: null,
              },
            },
          }),
        );
      }
      const id = agent.id;
      const runs = await unwrap(
        api.GET('/api/agents/{id}/runs/', {
          params: { path: { id }, query: { kind: 'real', page_size: 1 } },
        }),
      );
      if (runs.count > 0) return;
      const started = await unwrap(
        api.POST('/api/agents/{id}/run-now/', { params: { path: { id } }, body: {} }),
      );
      const runId = started.runs[0]!.id;
      const deadline = Date.now() + 60_000;
      for (;;) {
        const run = await unwrap(
          api.GET('/api/agents/{id}/runs/{runId}/', { params: { path: { id, runId } } }),
        );
        if (!['queued', 'running'].includes(run.status)) {
          made.agentRun = run.status;
          break;
        }
        if (Date.now() > deadline) throw new Error('its run did not finish within 60 s');
        await new Promise((r) => setTimeout(r, 500));
      }
    });

  const offer = templates?.find((t) => t.name === TEMPLATES[1]!.name);
  if (list && offer)
    await step('the campaign draft', warn, async () => {
      const campaigns = await unwrap(api.GET('/api/campaigns/', { params: { query: { page_size: 100 } } }));
      if (campaigns.results.some((c) => c.name === CAMPAIGN)) return;
      // A draft: the Campaigns area shows its audience, checklist and preview; nothing is sent.
      await unwrap(
        api.POST('/api/campaigns/', {
          body: {
            name: CAMPAIGN,
            channel: 'email',
            audience: { list_ids: [list.id], segment_ids: [], exclude_list_ids: [] },
            content: { template_id: offer.id },
            sender: 'Titan Demo <hello@demo-shop.test>',
            schedule: { mode: 'now' },
          },
        }),
      );
      made.campaign = true;
    });

  log(
    `areas: ${made.templates} templates and ${made.subscribers} subscribers added` +
      `${made.widgetConversation ? ', a chat-widget conversation' : ''}` +
      `${made.agentRun ? `, the demo agent's run ${made.agentRun}` : ''}` +
      `${made.campaign ? ', a campaign draft' : ''}`,
  );
  return made;
}
