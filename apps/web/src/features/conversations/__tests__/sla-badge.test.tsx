// The SLA on inbox rows (issue 29): time left to the nearest pending target, amber in the last
// quarter hour, "SLA missed" once missed, nothing without targets.
import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';

import { ConversationRow } from '../components/conversation-row';
import { slaState } from '../sla/sla-badge';
import { conversation } from './fixtures';

const NOW = Date.parse('2026-11-28T12:00:00.000Z');
const at = (minutes: number) => new Date(NOW + minutes * 60_000).toISOString();

describe('SLA state', () => {
  it('counts down to the nearest pending target', () => {
    expect(
      slaState({ first_response_due_at: at(45), resolution_due_at: at(600), breached: false }, NOW),
    ).toEqual({ text: 'Reply in 45 min', tone: 'ok' });
    expect(
      slaState({ first_response_due_at: null, resolution_due_at: at(190), breached: false }, NOW),
    ).toEqual({
      text: 'Resolve in 3 h',
      tone: 'ok',
    });
    expect(
      slaState({ first_response_due_at: at(10), resolution_due_at: null, breached: false }, NOW),
    ).toEqual({
      text: 'Reply in 10 min',
      tone: 'soon',
    });
  });
  it('says missed once a target passed or the server says so, and nothing without targets', () => {
    expect(
      slaState({ first_response_due_at: at(-1), resolution_due_at: null, breached: false }, NOW)?.text,
    ).toBe('SLA missed');
    expect(
      slaState({ first_response_due_at: null, resolution_due_at: null, breached: true }, NOW)?.tone,
    ).toBe('breached');
    expect(
      slaState({ first_response_due_at: null, resolution_due_at: null, breached: false }, NOW),
    ).toBeNull();
  });
});

describe('an inbox row', () => {
  it('shows the SLA badge beside the status', () => {
    const missed = conversation({
      sla: { first_response_due_at: null, resolution_due_at: null, breached: true },
    });
    render(
      <MemoryRouter>
        <ConversationRow conversation={missed} href="/x" selected={false} />
      </MemoryRouter>,
    );
    expect(screen.getByTestId('sla-badge')).toHaveTextContent('SLA missed');
  });
  it('shows none without targets', () => {
    render(
      <MemoryRouter>
        <ConversationRow conversation={conversation()} href="/x" selected={false} />
      </MemoryRouter>,
    );
    expect(screen.queryByTestId('sla-badge')).toBeNull();
  });
});
