// jsdom has no matchMedia: this fake answers the dark-scheme query and can flip it like the OS.
export type TFakeColorScheme = { setDark: (dark: boolean) => void };

export function installMatchMedia(initiallyDark: boolean): TFakeColorScheme {
  let dark = initiallyDark;
  const lists: Array<{ list: MediaQueryList; listeners: Set<(event: MediaQueryListEvent) => void> }> = [];

  window.matchMedia = (query: string): MediaQueryList => {
    const listeners = new Set<(event: MediaQueryListEvent) => void>();
    const list = {
      media: query,
      get matches() {
        return query === '(prefers-color-scheme: dark)' && dark;
      },
      onchange: null,
      addEventListener: (_type: string, listener: (event: MediaQueryListEvent) => void) => {
        listeners.add(listener);
      },
      removeEventListener: (_type: string, listener: (event: MediaQueryListEvent) => void) => {
        listeners.delete(listener);
      },
      addListener: (listener: (event: MediaQueryListEvent) => void) => listeners.add(listener),
      removeListener: (listener: (event: MediaQueryListEvent) => void) => listeners.delete(listener),
      dispatchEvent: () => true,
    } as unknown as MediaQueryList;
    lists.push({ list, listeners });
    return list;
  };

  return {
    setDark: (next) => {
      dark = next;
      for (const { list, listeners } of lists) {
        const event = { matches: list.matches, media: list.media } as MediaQueryListEvent;
        for (const listener of listeners) listener(event);
      }
    },
  };
}
