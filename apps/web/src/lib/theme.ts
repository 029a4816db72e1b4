// Theme preference (light | dark | system, spec sections 3-4): kept in localStorage under "theme",
// applied as the "dark" class on <html>; "system" follows the OS setting live.
// index.html carries a pre-paint copy of resolveTheme() so the first frame already matches.
import { useEffect } from 'react';
import { create } from 'zustand';

import { registerClientStateReset } from './client-state';

export const THEME_PREFERENCES = ['light', 'dark', 'system'] as const;
export type TThemePreference = (typeof THEME_PREFERENCES)[number];
export type TResolvedTheme = 'light' | 'dark';

export const THEME_STORAGE_KEY = 'theme';
export const DEFAULT_THEME_PREFERENCE: TThemePreference = 'system';
const DARK_SCHEME_QUERY = '(prefers-color-scheme: dark)';

export function isThemePreference(value: unknown): value is TThemePreference {
  return THEME_PREFERENCES.some((preference) => preference === value);
}

export function readThemePreference(): TThemePreference {
  try {
    const stored = window.localStorage.getItem(THEME_STORAGE_KEY);
    return isThemePreference(stored) ? stored : DEFAULT_THEME_PREFERENCE;
  } catch {
    // Storage can be blocked (privacy modes, sandboxed iframes): fall back to the default.
    return DEFAULT_THEME_PREFERENCE;
  }
}

function writeThemePreference(preference: TThemePreference): void {
  try {
    window.localStorage.setItem(THEME_STORAGE_KEY, preference);
  } catch {
    // The choice still applies for this page view when it cannot be persisted.
  }
}

function darkSchemeQuery(): MediaQueryList | null {
  return typeof window.matchMedia === 'function' ? window.matchMedia(DARK_SCHEME_QUERY) : null;
}

export function resolveTheme(preference: TThemePreference, systemPrefersDark: boolean): TResolvedTheme {
  if (preference === 'system') return systemPrefersDark ? 'dark' : 'light';
  return preference;
}

function applyTheme(theme: TResolvedTheme): void {
  const root = document.documentElement;
  root.classList.toggle('dark', theme === 'dark');
  root.style.colorScheme = theme;
}

type TThemeState = {
  preference: TThemePreference;
  resolved: TResolvedTheme;
  setPreference: (preference: TThemePreference) => void;
};

function stateFor(preference: TThemePreference): Pick<TThemeState, 'preference' | 'resolved'> {
  return { preference, resolved: resolveTheme(preference, darkSchemeQuery()?.matches ?? false) };
}

export const useThemeStore = create<TThemeState>()((set) => ({
  ...stateFor(readThemePreference()),
  setPreference: (preference) => {
    writeThemePreference(preference);
    set(stateFor(preference));
  },
}));

// Logout clears local storage, so the reset lands on the default preference.
registerClientStateReset(() => useThemeStore.setState(stateFor(readThemePreference())));

/**
 * Keeps <html> in step with the preference: applies it now, re-applies on every change, follows
 * the OS scheme while the preference is "system" and picks up changes made in other tabs.
 * Returns the cleanup.
 */
export function startThemeSync(): () => void {
  useThemeStore.setState(stateFor(readThemePreference()));
  applyTheme(useThemeStore.getState().resolved);
  const unsubscribe = useThemeStore.subscribe((state, previous) => {
    if (state.resolved !== previous.resolved) applyTheme(state.resolved);
  });

  const query = darkSchemeQuery();
  const onSchemeChange = (): void => {
    const { preference } = useThemeStore.getState();
    if (preference === 'system') useThemeStore.setState(stateFor(preference));
  };
  query?.addEventListener('change', onSchemeChange);

  const onStorage = (event: StorageEvent): void => {
    if (event.key === THEME_STORAGE_KEY) useThemeStore.setState(stateFor(readThemePreference()));
  };
  window.addEventListener('storage', onStorage);

  return () => {
    unsubscribe();
    query?.removeEventListener('change', onSchemeChange);
    window.removeEventListener('storage', onStorage);
  };
}

export function useThemeSync(): void {
  useEffect(() => startThemeSync(), []);
}
