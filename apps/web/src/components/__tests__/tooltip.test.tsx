import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { IconTooltip } from '../ui/tooltip';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('icon button tooltips', () => {
  it('show the button’s name after 300 ms of hovering, not before', () => {
    render(
      <IconTooltip label="Attach a file">
        <button type="button" aria-label="Attach a file">
          📎
        </button>
      </IconTooltip>,
    );
    // A mouse moving onto the button (what Radix listens to; touch never opens a tooltip).
    fireEvent.pointerMove(screen.getByRole('button', { name: 'Attach a file' }), { pointerType: 'mouse' });
    act(() => vi.advanceTimersByTime(299));
    expect(screen.queryByRole('tooltip')).toBeNull();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.getByRole('tooltip')).toHaveTextContent('Attach a file');
  });
});
