import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';

import { http } from 'msw';

import { business, fail, ok } from '../../../test/api';
import { renderApp } from '../../../test/render-app';
import { server } from '../../../test/server';
import { AGENT_STRINGS } from '../strings';
import { CONFIG, SUGGESTION, WIN_BACK, withAgents } from './fixtures';

const L = AGENT_STRINGS.list;
const E = AGENT_STRINGS.editor;
const S = AGENT_STRINGS.schedule;
const P = AGENT_STRINGS.preview;

const SLOW = { timeout: 30_000 };

describe('Agents list', () => {
  it('shows each agent with its status, next run in words and last run', SLOW, async () => {
    withAgents();
    renderApp('/engage/agent');
    const table = await screen.findByRole('table', { name: L.tableLabel });
    const [row] = within(table).getAllByRole('row').slice(1);
    expect(within(row!).getByRole('link', { name: L.open('Win-back') })).toHaveAttribute(
      'href',
      '/engage/agent/5',
    );
    expect(within(row!).getByText('Active')).toBeInTheDocument();
    // 08:00 UTC is 09:00 in Berlin.
    expect(within(row!).getByText('Mon, 30 Nov 2026, 09:00')).toBeInTheDocument();
    expect(within(row!).getByText('Every Monday at 09:00, Europe/Berlin')).toBeInTheDocument();
    expect(
      within(row!).getByRole('link', { name: new RegExp(`^${L.lastRunOf('Win-back')}`) }),
    ).toHaveAttribute('href', '/engage/event-logs/agents/5/email/run-1');
    expect(within(row!).getByText('Waiting for approval')).toBeInTheDocument();
    expect(within(row!).getByRole('link', { name: L.runLogOf('Win-back') })).toHaveAttribute(
      'href',
      '/engage/event-logs/agents/5',
    );
  });

  it('offers the suggested agents when there are none, and opens a suggestion as a draft', SLOW, async () => {
    const state = withAgents({ agents: [] });
    const { router } = renderApp('/engage/agent');
    expect(await screen.findByText(L.emptyTitle)).toBeInTheDocument();
    expect(await screen.findByText(SUGGESTION.reason)).toBeInTheDocument();
    expect(await screen.findByText(L.audienceCount(42))).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: L.startFrom(SUGGESTION.name) }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/engage/agent/9'));
    expect(state.posts[0]).toEqual({
      name: SUGGESTION.name,
      description: SUGGESTION.description,
      status: 'draft',
      config: SUGGESTION.config,
    });
    // The opened draft settles (its first render is replaced when the agent is read): each is awaited.
    await waitFor(() => expect(screen.getByText('Draft')).toBeInTheDocument());
    // The suggestion's conditions are shown in words.
    await waitFor(() => expect(screen.getByText('Has an email address')).toBeInTheDocument());
    await waitFor(() => expect(screen.getByDisplayValue(SUGGESTION.config.goal)).toBeInTheDocument());
  });

  it('says when the agents cannot be loaded, and tries again', SLOW, async () => {
    withAgents();
    let calls = 0;
    server.use(
      http.get('/api/agents/', () => {
        calls += 1;
        // The first answer and its one automatic retry fail.
        return calls <= 2 ? fail(500, 'Something went wrong on our side.') : ok([WIN_BACK]);
      }),
    );
    renderApp('/engage/agent');
    expect(await screen.findByText(L.loadFailed)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('table', { name: L.tableLabel })).toBeInTheDocument();
  });

  it('answers a role without engage.write with a read-only list', SLOW, async () => {
    withAgents({ role: 'agent' });
    renderApp('/engage/agent');
    expect(await screen.findByRole('table', { name: L.tableLabel })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: L.create })).not.toBeInTheDocument();
  });
});

describe('Agent create and edit', () => {
  it('shows what is missing at each field, then the server’s refusal at its field', SLOW, async () => {
    const state = withAgents({ agents: [] });
    const { router } = renderApp('/engage/agent/create');
    expect(await screen.findByRole('heading', { level: 1, name: E.newTitle })).toBeInTheDocument();
    // Defaults: review mode, no schedule.
    expect(await screen.findByRole('radio', { name: /I approve each message/ })).toBeChecked();
    await userEvent.click(screen.getByRole('button', { name: E.create }));

    expect(await screen.findByText(E.fixErrors)).toBeInTheDocument();
    expect(screen.getByLabelText(E.name)).toHaveAccessibleDescription(E.nameRequired);
    expect(screen.getByLabelText(E.goal)).toHaveAccessibleDescription(
      expect.stringContaining(E.goalRequired),
    );
    expect(screen.getByText('Choose at least one list or a segment.')).toBeInTheDocument();
    expect(screen.getByText(E.channelRequired)).toBeInTheDocument();
    expect(state.posts).toHaveLength(0);

    await userEvent.type(screen.getByLabelText(E.name), 'Reminder');
    await userEvent.type(screen.getByLabelText(E.goal), 'Remind customers of their booking');
    await userEvent.type(screen.getByLabelText(E.instructions), 'Be brief.');
    await userEvent.click(await screen.findByRole('checkbox', { name: /Newsletter/ }));
    expect(screen.getByText(E.audienceTotal(120))).toBeInTheDocument();
    await userEvent.click(screen.getByRole('checkbox', { name: /Lapsed/ }));
    expect(screen.getByText(E.audienceTotal(162))).toBeInTheDocument();
    await userEvent.click(screen.getByRole('checkbox', { name: E.sendBy('Email') }));
    await userEvent.selectOptions(await screen.findByLabelText(E.template('Email')), 'Welcome back');
    // The tools picker lists built-ins and MCP tools, with their approval setting.
    await userEvent.click(await screen.findByRole('checkbox', { name: /send_email/ }));
    await userEvent.selectOptions(screen.getByLabelText(E.approval('send_email')), 'review');
    expect(screen.getByRole('checkbox', { name: /crm_search/ })).toBeInTheDocument();
    const limit = screen.getByLabelText(E.limits.max_sends_per_run);
    await userEvent.clear(limit);
    await userEvent.type(limit, '0');

    await userEvent.click(screen.getByRole('button', { name: E.create }));
    expect(await screen.findByText('Enter a whole number from 1 to 10000.')).toBeInTheDocument();
    expect(state.posts).toHaveLength(0);
    await userEvent.clear(limit);
    await userEvent.type(limit, '50');

    state.postAnswer = () =>
      fail(400, 'Invalid input.', {
        'config.channels.0.template_id': ['No such template in your business.'],
      });
    await userEvent.click(screen.getByRole('button', { name: E.create }));
    expect(await screen.findByText('No such template in your business.')).toBeInTheDocument();
    expect(screen.getByLabelText(E.template('Email'))).toHaveAttribute('aria-invalid', 'true');

    state.postAnswer = null;
    await userEvent.click(screen.getByRole('button', { name: E.create }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/engage/agent/9'));
    expect(state.posts.at(-1)).toEqual({
      name: 'Reminder',
      description: '',
      status: 'draft',
      config: {
        instructions: 'Be brief.',
        goal: 'Remind customers of their booking',
        audience: { list_ids: [11, 12] },
        channels: [{ channel: 'email', template_id: 7 }],
        tools: [{ source: 'builtin', name: 'send_email', approval: 'review' }],
        limits: { max_sends_per_run: 50, per_recipient_per_week: 1, max_steps: 10, max_tokens: 4000 },
        send_mode: 'review',
        consent_mode: 'subscribed',
        quiet_hours: null,
      },
    });
    expect(state.schedules).toHaveLength(0);
  });

  it(
    'writes only to subscribed customers unless legitimate interest is chosen, saying who is never written to',
    SLOW,
    async () => {
      const state = withAgents();
      renderApp('/engage/agent/5');
      const group = await screen.findByRole('radiogroup', { name: E.consentTitle });
      const only = within(group).getByRole('radio', { name: /Only customers who subscribed/ });
      const wider = within(group).getByRole('radio', {
        name: /Also customers with unknown consent \(legitimate interest\)/,
      });
      expect(only).toBeChecked();
      expect(wider).not.toBeChecked();
      expect(screen.getByText(E.consentMode.legitimate_interest.hint)).toBeInTheDocument();
      expect(screen.getByText(E.consentNever)).toBeInTheDocument();
      // The editor no longer promises what the default did not keep.
      expect(screen.queryByText(/only writes to those who agreed/)).not.toBeInTheDocument();

      await userEvent.click(wider);
      await userEvent.click(screen.getByRole('button', { name: E.save }));
      expect(await screen.findByText(E.savedVersion(4))).toBeInTheDocument();
      expect(state.configs).toEqual([expect.objectContaining({ consent_mode: 'legitimate_interest' })]);
      expect(
        within(screen.getByRole('radiogroup', { name: E.consentTitle })).getByRole('radio', {
          name: /legitimate interest/,
        }),
      ).toBeChecked();
    },
  );

  it('writes a new config version when the configuration changes, and only then', SLOW, async () => {
    const state = withAgents();
    renderApp('/engage/agent/5');
    const goal = await screen.findByLabelText(E.goal);
    expect(goal).toHaveValue(CONFIG.goal);
    expect(screen.getByText(E.version(3))).toBeInTheDocument();
    await userEvent.clear(goal);
    await userEvent.type(goal, 'Bring back customers who left');
    await userEvent.click(screen.getByRole('checkbox', { name: E.quietEnabled }));
    expect(screen.getByText(E.unsavedChanges)).toBeInTheDocument();
    // Acting on the saved agent waits for the save.
    expect(screen.getByRole('button', { name: E.runNow })).toBeDisabled();
    await userEvent.click(screen.getByRole('button', { name: E.save }));
    expect(await screen.findByText(E.savedVersion(4))).toBeInTheDocument();
    expect(state.configs).toEqual([
      {
        ...Object.fromEntries(Object.entries(CONFIG).filter(([k]) => k !== 'version' && k !== 'created_at')),
        goal: 'Bring back customers who left',
        quiet_hours: { start: '21:00', end: '08:00' },
      },
    ]);
    // Name, description and schedule did not change: nothing else was written.
    expect(state.puts).toEqual([]);
    expect(state.schedules).toEqual([]);
    expect(await screen.findByText(E.version(4))).toBeInTheDocument();

    await userEvent.type(screen.getByLabelText(E.name), ' 2');
    await userEvent.click(screen.getByRole('button', { name: E.save }));
    expect(await screen.findByText(E.saved)).toBeInTheDocument();
    expect(state.puts).toEqual([{ name: 'Win-back 2', description: WIN_BACK.description }]);
    expect(state.configs).toHaveLength(1);
  });

  it('shows a server error about quiet hours at the field', SLOW, async () => {
    const state = withAgents();
    state.configAnswer = () =>
      fail(400, 'Invalid input.', {
        'quiet_hours.end': ['Quiet hours must start and end at different times.'],
      });
    renderApp('/engage/agent/5');
    await userEvent.click(await screen.findByRole('checkbox', { name: E.quietEnabled }));
    await userEvent.click(screen.getByRole('button', { name: E.save }));
    expect(await screen.findByText('Quiet hours must start and end at different times.')).toBeInTheDocument();
    expect(screen.getByLabelText(E.quietEnd)).toHaveAttribute('aria-invalid', 'true');
  });

  it('activates, pauses, runs now and deletes', SLOW, async () => {
    const state = withAgents({ agents: [{ ...WIN_BACK, status: 'draft' }] });
    const { router } = renderApp('/engage/agent/5');
    await userEvent.click(await screen.findByRole('button', { name: E.activate }));
    expect(await screen.findByText(E.activated)).toBeInTheDocument();
    expect(state.puts).toEqual([{ status: 'active' }]);
    await userEvent.click(await screen.findByRole('button', { name: E.pause }));
    expect(await screen.findByText(E.paused)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: E.runNow }));
    expect(await screen.findByText(E.runStarted(1))).toBeInTheDocument();
    expect(state.runNow).toEqual([{}]);
    await userEvent.click(screen.getByRole('button', { name: E.delete }));
    const dialog = await screen.findByRole('alertdialog');
    await userEvent.click(within(dialog).getByRole('button', { name: E.delete }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/engage/agent'));
    expect(state.agents).toEqual([]);
  });

  it('uploads a picture, and says why a file is refused', SLOW, async () => {
    withAgents();
    renderApp('/engage/agent/5');
    const input = await screen.findByLabelText(E.avatarUpload);
    await userEvent.upload(input, new File(['%PDF'], 'notes.pdf', { type: 'application/pdf' }), {
      applyAccept: false,
    });
    expect(await screen.findByText('Upload a PNG, JPEG, GIF or WebP image.')).toBeInTheDocument();
    await userEvent.upload(input, new File(['png'], 'robot.png', { type: 'image/png' }));
    expect(await screen.findByText(E.avatarUploaded)).toBeInTheDocument();
    expect(screen.getByRole('img', { name: E.avatarAlt('Win-back') }).getAttribute('src')).toMatch(
      /^http:\/\/titan\.test\/agent_images\//,
    );
  });

  it('says an unknown agent is not found', SLOW, async () => {
    withAgents();
    renderApp('/engage/agent/77');
    expect(await screen.findByText(E.notFoundText)).toBeInTheDocument();
  });
});

describe('Agent schedule', () => {
  it('is shown and saved in words, with the next runs listed', SLOW, async () => {
    const state = withAgents();
    renderApp('/engage/agent/5');
    expect(await screen.findByTestId('schedule-words')).toHaveTextContent(
      'Every Monday at 09:00, Europe/Berlin',
    );
    const runs = within(screen.getByRole('list', { name: S.nextRuns })).getAllByRole('listitem');
    expect(runs).toHaveLength(5);
    for (const run of runs) expect(run.textContent).toMatch(/^Mon, .*, 09:00$/);

    await userEvent.click(screen.getByRole('checkbox', { name: 'Thu' }));
    const time = screen.getByLabelText(S.time);
    await userEvent.clear(time);
    await userEvent.type(time, '17:30');
    const zone = screen.getByLabelText(S.timezone);
    await userEvent.clear(zone);
    await userEvent.type(zone, 'America/New_York');
    expect(screen.getByTestId('schedule-words')).toHaveTextContent(
      'Every Monday and Thursday at 17:30, America/New_York',
    );
    for (const run of within(screen.getByRole('list', { name: S.nextRuns })).getAllByRole('listitem'))
      expect(run.textContent).toMatch(/^(Mon|Thu), .*, 17:30$/);

    await userEvent.click(screen.getByRole('button', { name: E.save }));
    expect(await screen.findByText(E.saved)).toBeInTheDocument();
    expect(state.schedules).toEqual([
      { kind: 'cron', cron: '30 17 * * 1,4', timezone: 'America/New_York', missed: 'skip' },
    ]);
    expect(state.configs).toEqual([]);
  });

  it('shows the server’s refusal of the window at its field', SLOW, async () => {
    withAgents();
    server.use(
      http.put('/api/agents/:id/schedule/', () =>
        fail(400, 'Invalid input.', { end_at: ['This schedule has no run between start_at and end_at.'] }),
      ),
    );
    renderApp('/engage/agent/5');
    await userEvent.type(await screen.findByLabelText(S.startAt), '2026-12-10T10:00');
    await userEvent.type(screen.getByLabelText(S.endAt), '2026-12-11T10:00');
    await userEvent.click(screen.getByRole('button', { name: E.save }));
    expect(
      await screen.findByText('This schedule has no run between start_at and end_at.'),
    ).toBeInTheDocument();
    expect(screen.getByLabelText(S.endAt)).toHaveAttribute('aria-invalid', 'true');
  });

  it('starts a new agent’s schedule in the business’s time zone', SLOW, async () => {
    withAgents();
    server.use(http.get('/api/business/', () => ok(business({ time_zone: 'Asia/Tokyo' }))));
    renderApp('/engage/agent/create');
    await userEvent.selectOptions(await screen.findByLabelText(S.repeat), 'weekly');
    expect(screen.getByLabelText(S.timezone)).toHaveValue('Asia/Tokyo');
    expect(screen.getByTestId('schedule-words')).toHaveTextContent('Asia/Tokyo');
  });

  it('starts a schedule added to an agent without one in the business’s time zone', SLOW, async () => {
    const state = withAgents({ agents: [{ ...WIN_BACK, schedule: null }] });
    server.use(http.get('/api/business/', () => ok(business({ time_zone: 'Asia/Tokyo' }))));
    renderApp('/engage/agent/5');
    await userEvent.selectOptions(await screen.findByLabelText(S.repeat), 'weekly');
    expect(screen.getByLabelText(S.timezone)).toHaveValue('Asia/Tokyo');
    expect(screen.getByTestId('schedule-words')).toHaveTextContent('Asia/Tokyo');
    await userEvent.click(screen.getByRole('button', { name: E.save }));
    expect(await screen.findByText(E.saved)).toBeInTheDocument();
    expect(state.schedules).toEqual([expect.objectContaining({ timezone: 'Asia/Tokyo' })]);
  });

  it('refuses a time zone that does not exist before asking the server', SLOW, async () => {
    const state = withAgents();
    renderApp('/engage/agent/5');
    const zone = await screen.findByLabelText(S.timezone);
    await userEvent.clear(zone);
    await userEvent.type(zone, 'Mars/Olympus');
    expect(screen.getByText(S.badZone)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: E.save }));
    expect(
      await screen.findByText('Enter a valid IANA time zone, such as Europe/Berlin.'),
    ).toBeInTheDocument();
    expect(state.schedules).toEqual([]);
  });
});

describe('Agent preview', () => {
  it('shows what the agent would send, rendered, and why it would not send', SLOW, async () => {
    const state = withAgents();
    renderApp('/engage/agent/5');
    await userEvent.click(await screen.findByRole('button', { name: P.run }));
    const frame = await screen.findByTitle(P.frame('Ada Lovelace'));
    expect(frame).toHaveAttribute('sandbox', '');
    expect(frame.getAttribute('srcdoc')).toBe('<p>Hello Ada, we miss you</p>');
    expect(screen.getByText('We miss you, Ada')).toBeInTheDocument();
    expect(screen.getByText(P.to('Grace Hopper'))).toBeInTheDocument();
    expect(screen.getByText(P.wouldNotSend)).toBeInTheDocument();
    expect(screen.getByText('Visited last week: no need to write.')).toBeInTheDocument();
    expect(state.previews).toEqual([{ channel: 'email', sample_size: 3 }]);
    expect(screen.getByRole('link', { name: P.openRun })).toHaveAttribute(
      'href',
      '/engage/event-logs/agents/5/email/run-preview',
    );
  });
});

describe('Agent run log', () => {
  it('lists the runs per channel with their counts', SLOW, async () => {
    withAgents();
    const { router } = renderApp('/engage/event-logs/agents/5');
    const table = await screen.findByRole('table', { name: 'Email runs' });
    const [row] = within(table).getAllByRole('row').slice(1);
    const cells = within(row!)
      .getAllByRole('cell')
      .map((c) => c.textContent);
    expect(cells.slice(1)).toEqual(['Scheduled', 'Waiting for approval', '3', '1', '1', '1', '0', '0', '3']);
    // Previews are kept apart from the runs that could send.
    expect(within(table).queryByText('Preview')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Previews' }));
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Previews' })).toHaveAttribute('aria-pressed', 'true'),
    );
    await waitFor(() =>
      expect(
        within(screen.getByRole('table', { name: 'Email runs' })).getByText('Preview'),
      ).toBeInTheDocument(),
    );
    expect(router.state.location.search).toBe('?channel=email&kind=preview');
    await userEvent.click(screen.getByRole('button', { name: 'Runs' }));
    await waitFor(() =>
      expect(within(screen.getByRole('table', { name: 'Email runs' })).queryByText('Preview')).toBeNull(),
    );
    const again = screen.getByRole('table', { name: 'Email runs' });
    const [first] = within(again).getAllByRole('row').slice(1);
    await userEvent.click(within(first!).getAllByRole('link')[0]!);
    await waitFor(() =>
      expect(router.state.location.pathname).toBe('/engage/event-logs/agents/5/email/run-1'),
    );
  });

  it('shows a run’s steps and messages, each sent one linking to its send’s page', SLOW, async () => {
    withAgents({ role: 'agent' });
    renderApp('/engage/event-logs/agents/5/email/run-1');
    const steps = await screen.findByRole('list', { name: AGENT_STRINGS.logs.stepsLabel });
    const items = within(steps).getAllByRole('listitem');
    expect(items).toHaveLength(3);
    expect(within(items[0]!).getByText('lookup_customer')).toBeInTheDocument();
    expect(within(items[0]!).getByText(AGENT_STRINGS.logs.toolAnswer)).toBeInTheDocument();
    expect(
      within(items[1]!).getByText('Ada has been away since August; a warm invitation fits.'),
    ).toBeInTheDocument();
    expect(within(items[1]!).getByText(/for Ada Lovelace/)).toBeInTheDocument();
    expect(within(items[2]!).getByText('Limit check')).toBeInTheDocument();
    expect(within(items[2]!).getByText('Unsubscribed from email.')).toBeInTheDocument();

    const messages = screen.getByRole('table', { name: AGENT_STRINGS.logs.deliveriesLabel });
    expect(
      within(messages).getByRole('link', { name: AGENT_STRINGS.logs.openSendOf('Ada Lovelace') }),
    ).toHaveAttribute('href', '/engage/event-logs/emails/send-ada');
    expect(within(messages).getByText('Unsubscribed or bounced')).toBeInTheDocument();
    expect((await within(messages).findAllByText('Template: Welcome back')).length).toBe(3);
    expect(within(messages).getByText('We saved you a seat')).toBeInTheDocument();
    // A role without engage.write sees the queue but cannot approve.
    expect(screen.getByText(AGENT_STRINGS.logs.review.readOnly)).toBeInTheDocument();
    expect(
      screen.queryByRole('button', { name: AGENT_STRINGS.logs.review.approveAll }),
    ).not.toBeInTheDocument();
  });

  it('approves a waiting message, and rejects all after confirming', SLOW, async () => {
    const state = withAgents();
    state.run.deliveries.push({
      ...state.run.deliveries[1]!,
      id: '00000000-0000-4000-8000-000000000004',
      customer: { id: 24, name: 'Hedy Lamarr', email: 'hedy@example.com', phone: null },
    });
    state.run.counts.pending_approval = 2;
    renderApp('/engage/event-logs/agents/5/email/run-1');
    const R = AGENT_STRINGS.logs.review;
    expect(await screen.findByText(R.text(2))).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: R.approveOne('Grace Hopper') }));
    expect(await screen.findByText(R.approved(1))).toBeInTheDocument();
    expect(state.reviews[0]).toEqual({
      action: 'approve',
      body: { delivery_ids: ['00000000-0000-4000-8000-000000000002'] },
    });
    expect(await screen.findByText(R.text(1))).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: R.approveOne('Grace Hopper') })).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: R.rejectAll }));
    const dialog = await screen.findByRole('alertdialog');
    await userEvent.click(within(dialog).getByRole('button', { name: R.rejectAll }));
    expect(await screen.findByText(R.rejected(1))).toBeInTheDocument();
    expect(state.reviews[1]).toEqual({ action: 'reject', body: { all: true } });
    await waitFor(() => expect(screen.queryByRole('region', { name: R.title })).not.toBeInTheDocument());
    expect(
      within(screen.getByRole('table', { name: AGENT_STRINGS.logs.deliveriesLabel })).getAllByText(
        'Rejected',
      ),
    ).toHaveLength(1);
  });

  it('says how many messages Approve all sends and sends nothing until confirmed', SLOW, async () => {
    const state = withAgents();
    state.run.deliveries.push({
      ...state.run.deliveries[1]!,
      id: '00000000-0000-4000-8000-000000000004',
      customer: { id: 24, name: 'Hedy Lamarr', email: 'hedy@example.com', phone: null },
    });
    state.run.counts.pending_approval = 2;
    renderApp('/engage/event-logs/agents/5/email/run-1');
    const R = AGENT_STRINGS.logs.review;
    await userEvent.click(await screen.findByRole('button', { name: R.approveAll }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Send 2 messages?' });
    expect(dialog).toHaveTextContent('Approving sends all 2 waiting messages to their customers now.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(state.reviews).toEqual([]);
    await userEvent.click(screen.getByRole('button', { name: R.approveAll }));
    await userEvent.click(await screen.findByRole('button', { name: 'Send 2 messages' }));
    await waitFor(() => expect(state.reviews).toEqual([{ action: 'approve', body: { all: true } }]));
  });

  it('says a run of another channel is not found', SLOW, async () => {
    withAgents();
    renderApp('/engage/event-logs/agents/5/sms/run-1');
    expect(
      await screen.findByRole('heading', { level: 1, name: AGENT_STRINGS.logs.notFoundTitle }),
    ).toBeInTheDocument();
    expect(screen.getByText(AGENT_STRINGS.logs.notFoundText)).toBeInTheDocument();
  });
});
