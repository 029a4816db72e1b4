import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';

import indexHtml from '../../../index.html?raw';
import { AppProviders } from '../../test/render-app';
import { ThemeToggle } from '../../components/theme-toggle';
import { installMatchMedia } from '../../test/match-media';
import { resolveTheme, THEME_PREFERENCES, type TThemePreference } from '../theme';

function renderToggle() {
  return render(
    <AppProviders>
      <ThemeToggle />
    </AppProviders>,
  );
}

const html = () => document.documentElement;

describe('theme', () => {
  it('defaults to system and follows a light OS', () => {
    installMatchMedia(false);
    renderToggle();

    expect(screen.getByRole('radio', { name: 'System' })).toBeChecked();
    expect(html()).not.toHaveClass('dark');
  });

  it('defaults to system and follows a dark OS', () => {
    installMatchMedia(true);
    renderToggle();

    expect(screen.getByRole('radio', { name: 'System' })).toBeChecked();
    expect(html()).toHaveClass('dark');
  });

  it('persists the chosen theme in localStorage and applies it', async () => {
    installMatchMedia(false);
    const { unmount } = renderToggle();

    await userEvent.click(screen.getByRole('radio', { name: 'Dark' }));

    expect(window.localStorage.getItem('theme')).toBe('dark');
    expect(html()).toHaveClass('dark');
    expect(screen.getByRole('radio', { name: 'Dark' })).toBeChecked();

    unmount();
    html().classList.remove('dark');
    renderToggle();

    expect(screen.getByRole('radio', { name: 'Dark' })).toBeChecked();
    expect(html()).toHaveClass('dark');
  });

  it('restores a stored light preference even on a dark OS', () => {
    window.localStorage.setItem('theme', 'light');
    installMatchMedia(true);
    renderToggle();

    expect(screen.getByRole('radio', { name: 'Light' })).toBeChecked();
    expect(html()).not.toHaveClass('dark');
  });

  it('treats an unknown stored value as system', () => {
    window.localStorage.setItem('theme', 'sepia');
    installMatchMedia(true);
    renderToggle();

    expect(screen.getByRole('radio', { name: 'System' })).toBeChecked();
    expect(html()).toHaveClass('dark');
  });

  it('follows the OS preference live while set to system', () => {
    const os = installMatchMedia(false);
    renderToggle();
    expect(html()).not.toHaveClass('dark');

    act(() => os.setDark(true));
    expect(html()).toHaveClass('dark');

    act(() => os.setDark(false));
    expect(html()).not.toHaveClass('dark');
  });

  it('ignores OS changes while set to light or dark', async () => {
    const os = installMatchMedia(false);
    renderToggle();

    await userEvent.click(screen.getByRole('radio', { name: 'Light' }));
    act(() => os.setDark(true));
    expect(html()).not.toHaveClass('dark');

    await userEvent.click(screen.getByRole('radio', { name: 'Dark' }));
    act(() => os.setDark(false));
    expect(html()).toHaveClass('dark');

    await userEvent.click(screen.getByRole('radio', { name: 'System' }));
    expect(window.localStorage.getItem('theme')).toBe('system');
    expect(html()).not.toHaveClass('dark');
  });

  it('picks up a theme chosen in another tab', () => {
    installMatchMedia(false);
    renderToggle();

    act(() => {
      window.localStorage.setItem('theme', 'dark');
      window.dispatchEvent(new StorageEvent('storage', { key: 'theme', newValue: 'dark' }));
    });

    expect(screen.getByRole('radio', { name: 'Dark' })).toBeChecked();
    expect(html()).toHaveClass('dark');
  });

  it('keeps a theme chosen when the active option is clicked again', async () => {
    installMatchMedia(false);
    renderToggle();

    await userEvent.click(screen.getByRole('radio', { name: 'System' }));

    expect(screen.getByRole('radio', { name: 'System' })).toBeChecked();
  });
});

describe('the pre-paint script in index.html', () => {
  const script = new DOMParser()
    .parseFromString(indexHtml, 'text/html')
    .getElementById('theme-init')?.textContent;

  const cases = THEME_PREFERENCES.flatMap((preference) =>
    [true, false].map((osDark) => ({ preference, osDark })),
  );

  it.each(cases)(
    'applies the same theme as the app for $preference on a dark OS: $osDark',
    ({ preference, osDark }: { preference: TThemePreference; osDark: boolean }) => {
      expect(script).toBeTruthy();
      window.localStorage.setItem('theme', preference);
      installMatchMedia(osDark);

      new Function(script ?? '')();

      const expected = resolveTheme(preference, osDark);
      expect(html().classList.contains('dark')).toBe(expected === 'dark');
      expect(html().style.colorScheme).toBe(expected);
    },
  );

  it('falls back to the OS preference when nothing is stored', () => {
    installMatchMedia(true);
    new Function(script ?? '')();
    expect(html()).toHaveClass('dark');
  });
});
