import { act, render, screen } from '@testing-library/react';
import { toast } from 'sonner';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { AppProviders } from '../providers';

beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: true });
});

afterEach(() => {
  act(() => toast.dismiss());
  vi.useRealTimers();
});

const visibleToasts = () => Array.from(document.querySelectorAll('[data-sonner-toast][data-visible="true"]'));

describe('toaster', () => {
  it('shows at most three toasts at a time', async () => {
    render(<AppProviders>content</AppProviders>);

    act(() => {
      for (const n of [1, 2, 3, 4, 5]) toast(`Toast ${n}`);
    });

    expect(await screen.findByText('Toast 5')).toBeInTheDocument();
    expect(visibleToasts()).toHaveLength(3);
  });

  it('hides a toast after 4 seconds', async () => {
    render(<AppProviders>content</AppProviders>);

    act(() => {
      toast('Saved');
    });
    expect(await screen.findByText('Saved')).toBeInTheDocument();

    await act(async () => vi.advanceTimersByTimeAsync(3900));
    expect(screen.getByText('Saved')).toBeInTheDocument();

    await act(async () => vi.advanceTimersByTimeAsync(1000));
    expect(screen.queryByText('Saved')).not.toBeInTheDocument();
  });
});
