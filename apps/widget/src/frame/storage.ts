// What survives a reload of the host page: the visitor's token and their open conversation, kept
// in localStorage under keys derived from business and group (spec section 9). Browsers that
// block storage in third-party frames get the host page's localStorage through the loader
// instead (same keys, on the host's origin); without either the chat lasts as long as the page.
import { storageKey, type TStoredKey } from '../shared/bridge-protocol';
import type { HostStorage } from './bridge';

export type TStoredVisitor = { token: string; user_id: string | null };

export type ChatStorage = {
  readVisitor(): TStoredVisitor | null;
  writeVisitor(visitor: TStoredVisitor | null): void;
  readConversation(): number | null;
  writeConversation(id: number | null): void;
};

/** The frame's own localStorage, or null where the browser denies it to third-party frames. */
function ownStorage(): Storage | null {
  try {
    const storage = window.localStorage;
    storage.setItem('titan:probe', '1');
    storage.removeItem('titan:probe');
    return storage;
  } catch {
    return null;
  }
}

function memoryStorage(): HostStorage {
  const memory = new Map<TStoredKey, string>();
  return {
    read: (key) => memory.get(key) ?? null,
    write: (key, value) => (value === null ? memory.delete(key) : memory.set(key, value)),
  };
}

export function chatStorage(business: string, group: string | null, host: HostStorage | null): ChatStorage {
  const own = ownStorage();
  const fallback = host ?? memoryStorage();
  const get = (key: TStoredKey): string | null =>
    own ? own.getItem(storageKey(business, group, key)) : fallback.read(key);
  const set = (key: TStoredKey, value: string | null) => {
    if (!own) return fallback.write(key, value);
    const name = storageKey(business, group, key);
    try {
      if (value === null) own.removeItem(name);
      else own.setItem(name, value);
    } catch {
      // full or revoked meanwhile: the chat goes on for this page
    }
  };
  return {
    readVisitor() {
      try {
        const parsed = JSON.parse(get('visitor') ?? 'null') as Partial<TStoredVisitor> | null;
        return typeof parsed?.token === 'string'
          ? { token: parsed.token, user_id: typeof parsed.user_id === 'string' ? parsed.user_id : null }
          : null;
      } catch {
        return null;
      }
    },
    writeVisitor: (visitor) => set('visitor', visitor ? JSON.stringify(visitor) : null),
    readConversation() {
      const id = Number(get('conversation'));
      return Number.isSafeInteger(id) && id > 0 ? id : null;
    },
    writeConversation: (id) => set('conversation', id === null ? null : String(id)),
  };
}
