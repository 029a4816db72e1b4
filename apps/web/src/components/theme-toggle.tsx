// Light / dark / system switch for the theme preference kept by lib/theme.
import { MonitorIcon, MoonIcon, SunIcon } from 'lucide-react';

import { isThemePreference, THEME_PREFERENCES, useThemeStore, type TThemePreference } from '../lib/theme';
import { ToggleGroup, ToggleGroupItem } from './ui/toggle-group';

const OPTIONS: Record<TThemePreference, { label: string; Icon: typeof SunIcon }> = {
  light: { label: 'Light', Icon: SunIcon },
  dark: { label: 'Dark', Icon: MoonIcon },
  system: { label: 'System', Icon: MonitorIcon },
};

export function ThemeToggle() {
  const preference = useThemeStore((state) => state.preference);
  const setPreference = useThemeStore((state) => state.setPreference);
  return (
    <ToggleGroup
      type="single"
      variant="outline"
      size="sm"
      aria-label="Theme"
      value={preference}
      // Radix reports "" when the active item is clicked again; a theme is always chosen.
      onValueChange={(value) => {
        if (isThemePreference(value)) setPreference(value);
      }}
    >
      {THEME_PREFERENCES.map((option) => {
        const { label, Icon } = OPTIONS[option];
        return (
          <ToggleGroupItem key={option} value={option} aria-label={label} title={label}>
            <Icon />
          </ToggleGroupItem>
        );
      })}
    </ToggleGroup>
  );
}
