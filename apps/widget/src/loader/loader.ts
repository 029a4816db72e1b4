// The embed script served as /widget.js: a launcher button on the host page and, on first open,
// the chat iframe from Titan's origin. Framework-free and defensive: it must never break the page.
import {
  BRIDGE_NS,
  isBridgeMessage,
  STORED_KEYS,
  STORED_VALUE_MAX,
  storageKey,
  type TFrameToHost,
  type THostToFrame,
  type TIdentity,
  type TStoredKey,
} from '../shared/bridge-protocol';

type Config = { business?: string; group?: string; color?: string; position?: string };
type Api = ((command: string, arg?: unknown) => void) & Config & { q?: ArrayLike<unknown>[] };
type Host = { TitanChat?: Api | Config; __titanChat?: boolean };

/** Without a `ready` from the frame by then, the chat is shown as unavailable. */
const READY_TIMEOUT_MS = 15_000;
/** A frame that has loaded (or failed to) and still said nothing is not coming. */
const AFTER_LOAD_GRACE_MS = 3_000;
const UNAVAILABLE = 'Chat is unavailable right now.';
const OPEN = 'Open chat';
const COLOR = /^#[0-9a-f]{6}$/i;

const CSS =
  ':host{all:initial}[hidden]{display:none!important}' +
  '.l,.p{position:fixed;right:20px;z-index:2147483000}' +
  '.l{bottom:20px;width:56px;height:56px;border-radius:50%;border:0;padding:0;cursor:pointer;' +
  'background:#111827;color:#fff;display:flex;align-items:center;justify-content:center;' +
  'box-shadow:0 4px 14px rgba(0,0,0,.25)}' +
  '.l:focus-visible{outline:3px solid #2563eb;outline-offset:3px}' +
  '.b{position:absolute;top:-4px;right:-4px;min-width:20px;height:20px;padding:0 5px;box-sizing:border-box;' +
  'border-radius:10px;background:#dc2626;color:#fff;font:600 12px/20px system-ui,sans-serif}' +
  '.p{bottom:88px;width:380px;height:min(640px,calc(100vh - 108px));border-radius:12px;overflow:hidden;' +
  'background:#fff;box-shadow:0 8px 30px rgba(0,0,0,.25)}' +
  '.p iframe{border:0;width:100%;height:100%;display:block}' +
  '.m{margin:0;padding:24px;font:14px/1.4 system-ui,sans-serif;color:#374151}' +
  '.left .l,.left .p{left:20px;right:auto}' +
  '@media (max-width:480px){.w .p{inset:0;width:100%;height:100%;border-radius:0}.open .l{display:none}}';

const ICON =
  '<svg width="26" height="26" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" ' +
  'stroke-linecap="round" stroke-linejoin="round" aria-hidden="true"><path d="M21 15a2 2 0 0 1-2 2H7l-4 ' +
  '4V5a2 2 0 0 1 2-2h14a2 2 0 0 1 2 2z"/></svg>';

function start(): void {
  const w = window as unknown as Host;
  if (w.__titanChat) return;
  const script = (document.currentScript ??
    document.querySelector('script[src*="/widget.js"]')) as HTMLScriptElement | null;
  if (!script || !script.src) return;
  const preset = (w.TitanChat ?? {}) as Api;
  const data = script.dataset;
  const business = data.business || preset.business;
  if (!business) return;
  w.__titanChat = true;
  const group = data.group || preset.group || '';
  // Titan's origin: where the frame lives, the only origin messages are accepted from.
  const titan = new URL(script.src, location.href).origin;

  const host = document.createElement('div');
  host.style.cssText = 'position:fixed;z-index:2147483000;bottom:0;right:0;width:0;height:0';
  const root = host.attachShadow({ mode: 'open' });
  root.innerHTML =
    `<style>${CSS}</style><div class="w"><div class="p" role="dialog" aria-label="Chat" hidden></div>` +
    `<button class="l" type="button" aria-expanded="false" aria-label="${OPEN}">${ICON}` +
    '<span class="b" aria-hidden="true" hidden></span></button></div>';
  const wrap = root.lastElementChild as HTMLElement;
  const panel = wrap.firstElementChild as HTMLElement;
  const launcher = wrap.lastElementChild as HTMLButtonElement;
  const badge = launcher.lastElementChild as HTMLElement;

  let frame: HTMLIFrameElement | null = null;
  let ready = false;
  let isOpen = false;
  let unread = 0;
  let identity: TIdentity | null = null;
  // The chat's own words for the launcher once it has said them (its language), else English.
  let words: { open: string; close: string } | null = null;
  const listeners: ((count: number) => void)[] = [];

  // The host page's copy of the chat's keys, for browsers that block the frame's own storage.
  const stored = () => {
    const values: Partial<Record<TStoredKey, string>> = {};
    try {
      for (const key of STORED_KEYS) {
        const value = localStorage.getItem(storageKey(business, group, key));
        if (value !== null) values[key] = value;
      }
    } catch {
      // storage blocked on the host page too: the chat lasts as long as the page
    }
    return values;
  };
  const store = (key: unknown, value: unknown) => {
    if (!STORED_KEYS.includes(key as TStoredKey)) return;
    const name = storageKey(business, group, key as TStoredKey);
    try {
      if (value === null) localStorage.removeItem(name);
      else if (typeof value === 'string' && value.length <= STORED_VALUE_MAX)
        localStorage.setItem(name, value);
    } catch {
      // as above
    }
  };

  const send = (message: THostToFrame) => {
    if (ready) frame?.contentWindow?.postMessage({ ns: BRIDGE_NS, ...message }, titan);
  };

  const label = () => {
    launcher.setAttribute('aria-expanded', String(isOpen));
    launcher.setAttribute(
      'aria-label',
      isOpen
        ? (words?.close ?? 'Close chat')
        : (words?.open ?? (unread ? `${OPEN}, ${unread} unread message${unread > 1 ? 's' : ''}` : OPEN)),
    );
  };

  const style = (color?: string, position?: string) => {
    if (color && COLOR.test(color)) {
      const n = parseInt(color.slice(1), 16);
      const light = ((n >> 16) * 299 + ((n >> 8) & 255) * 587 + (n & 255) * 114) / 1000 > 160;
      launcher.style.background = color;
      launcher.style.color = light ? '#111827' : '#fff';
    }
    if (position) wrap.classList.toggle('left', position === 'left');
  };

  const createFrame = () => {
    const f = (frame = document.createElement('iframe'));
    const path = `${encodeURIComponent(business)}${group ? `/${encodeURIComponent(group)}` : ''}`;
    f.title = 'Chat';
    // The page's language is the chat's first choice for its own.
    const lang = document.documentElement.lang;
    f.src =
      `${titan}/widget/frame/${path}?host=${encodeURIComponent(location.origin)}` +
      (lang ? `&lang=${encodeURIComponent(lang)}` : '');
    // Blocked (frame-ancestors), offline or failing: the frame never says `ready`. The next open retries.
    const unavailable = () => {
      if (ready || frame !== f) return;
      frame = null;
      panel.style.height = 'auto';
      panel.innerHTML = `<p class="m" role="alert">${UNAVAILABLE}</p>`;
    };
    f.addEventListener('load', () => setTimeout(unavailable, AFTER_LOAD_GRACE_MS));
    panel.style.height = '';
    panel.textContent = '';
    panel.appendChild(f);
    setTimeout(unavailable, READY_TIMEOUT_MS);
  };

  const open = () => {
    if (isOpen) return;
    isOpen = true;
    if (!frame) createFrame();
    panel.hidden = false;
    wrap.classList.add('open');
    label();
    send({ type: 'visibility', open: true });
    if (ready) frame?.focus();
  };

  const close = () => {
    if (!isOpen) return;
    isOpen = false;
    panel.hidden = true;
    wrap.classList.remove('open');
    label();
    send({ type: 'visibility', open: false });
    // Focus was in the chat (the shadow host from outside): give it back to the launcher.
    if (document.activeElement === host) launcher.focus();
  };

  const setUnread = (count: number) => {
    unread = Math.max(0, Math.floor(count) || 0);
    badge.hidden = !unread;
    badge.textContent = unread > 99 ? '99+' : String(unread);
    label();
    for (const cb of listeners) {
      try {
        cb(unread);
      } catch {
        // a host page's callback must not stop the others
      }
    }
    window.dispatchEvent(new CustomEvent('titanchat:unread', { detail: { count: unread } }));
  };

  launcher.addEventListener('click', () => (isOpen ? close() : open()));

  window.addEventListener('message', (event) => {
    if (!frame || event.source !== frame.contentWindow || event.origin !== titan) return;
    if (!isBridgeMessage<TFrameToHost>(event.data)) return;
    const message = event.data;
    if (message.type === 'ready') {
      ready = true;
      send({ type: 'init', open: isOpen, identity, stored: stored() });
      if (isOpen) frame.focus();
    } else if (message.type === 'info') style(message.color, message.position);
    else if (message.type === 'unread') setUnread(message.count);
    else if (message.type === 'labels') {
      words = { open: String(message.open), close: String(message.close) };
      panel.setAttribute('aria-label', String(message.dialog));
      frame.title = String(message.dialog);
      label();
    } else if (message.type === 'close') close();
    else if (message.type === 'store') store(message.key, message.value);
  });

  const api: Api = (command, arg) => {
    if (command === 'open') open();
    else if (command === 'close') close();
    else if (command === 'toggle') (isOpen ? close : open)();
    else if (command === 'identify' && arg && typeof arg === 'object') {
      identity = arg as TIdentity;
      send({ type: 'identify', identity });
    } else if (command === 'onUnreadChange' && typeof arg === 'function') {
      listeners.push(arg as (count: number) => void);
      (arg as (count: number) => void)(unread);
    }
  };
  api.business = business;
  api.group = group;
  style(data.color || preset.color, data.position || preset.position);
  const queued = preset.q ?? [];
  w.TitanChat = api;

  const mount = () => {
    document.body.appendChild(host);
    for (const call of Array.from(queued)) api(call[0] as string, call[1]);
  };
  if (document.body) mount();
  else document.addEventListener('DOMContentLoaded', mount);
}

try {
  start();
} catch {
  // The host page comes first: a widget that cannot start stays away.
}
