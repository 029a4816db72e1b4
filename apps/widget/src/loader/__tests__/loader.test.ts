// The embed script on a host page (jsdom): the launcher, the lazily created frame, and the
// postMessage bridge that talks to Titan's origin only.
import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from 'vitest';
import { BRIDGE_NS } from '../../shared/bridge-protocol';

const TITAN = 'https://titan.example';
type Host = { TitanChat?: unknown; __titanChat?: boolean };
const host = () => window as unknown as Host;
const titanChat = (command: string, arg?: unknown) =>
  (host().TitanChat as (command: string, arg?: unknown) => void)(command, arg);

async function boot(attributes: Record<string, string> = { business: 'acme', group: 'support' }) {
  const script = document.createElement('script');
  script.src = `${TITAN}/widget.js`;
  for (const [name, value] of Object.entries(attributes)) script.dataset[name] = value;
  document.head.appendChild(script);
  vi.resetModules();
  await import('../loader');
  const root = document.body.lastElementChild?.shadowRoot ?? null;
  return {
    root,
    launcher: () => root?.querySelector<HTMLButtonElement>('button.l') ?? null,
    frame: () => root?.querySelector('iframe') ?? null,
    panel: () => root?.querySelector<HTMLElement>('.p') ?? null,
  };
}

// jsdom gives frames in a shadow root no window: each frame gets a stand-in that records posts.
type FakeWindow = { postMessage: Mock };
const frameWindows = new WeakMap<HTMLIFrameElement, FakeWindow>();
const windowOf = (frame: HTMLIFrameElement) => frame.contentWindow as unknown as FakeWindow;

/** A message event as the browser delivers it, from `source` on `origin`. */
function deliver(data: unknown, origin: string, source: unknown) {
  const event = new Event('message');
  Object.defineProperties(event, {
    data: { value: data },
    origin: { value: origin },
    source: { value: source },
  });
  window.dispatchEvent(event);
}

function fromFrame(
  frame: HTMLIFrameElement,
  data: object,
  origin = TITAN,
  source: unknown = windowOf(frame),
) {
  deliver({ ns: BRIDGE_NS, ...data }, origin, source);
}

beforeEach(() => {
  document.head.innerHTML = '';
  document.body.innerHTML = '<p>host page</p>';
  localStorage.clear();
  delete host().TitanChat;
  delete host().__titanChat;
  vi.spyOn(HTMLIFrameElement.prototype, 'contentWindow', 'get').mockImplementation(function (
    this: HTMLIFrameElement,
  ) {
    let fake = frameWindows.get(this);
    if (!fake) frameWindows.set(this, (fake = { postMessage: vi.fn() }));
    return fake as unknown as Window;
  });
});
afterEach(() => vi.useRealTimers());

describe('the loader', () => {
  it('adds an accessible launcher and no frame until the chat is opened', async () => {
    const ui = await boot();
    expect(ui.launcher()?.getAttribute('aria-label')).toBe('Open chat');
    expect(ui.launcher()?.getAttribute('aria-expanded')).toBe('false');
    expect(ui.frame()).toBeNull();

    ui.launcher()!.click();
    const src = new URL(ui.frame()!.src);
    expect(src.origin).toBe(TITAN);
    expect(src.pathname).toBe('/widget/frame/acme/support');
    expect(src.searchParams.get('host')).toBe(window.location.origin);
    expect(ui.frame()!.title).toBe('Chat');
    expect(ui.launcher()?.getAttribute('aria-expanded')).toBe('true');
    expect(ui.launcher()?.getAttribute('aria-label')).toBe('Close chat');
  });

  it('stays away without a business, and never throws into the page', async () => {
    const ui = await boot({});
    expect(ui.root).toBeNull();
    expect(document.body.children).toHaveLength(1);
  });

  it('accepts messages only from its own frame on Titan’s origin', async () => {
    const ui = await boot();
    ui.launcher()!.click();
    const frame = ui.frame()!;
    const seen: number[] = [];
    titanChat('onUnreadChange', (n: number) => seen.push(n));

    fromFrame(frame, { type: 'unread', count: 3 }, 'https://evil.example');
    fromFrame(frame, { type: 'unread', count: 4 }, TITAN, window);
    deliver({ type: 'unread', count: 5 }, TITAN, windowOf(frame));
    expect(seen).toEqual([0]);

    fromFrame(frame, { type: 'unread', count: 2 });
    expect(seen).toEqual([0, 2]);
    const badge = ui.root!.querySelector<HTMLElement>('.b')!;
    expect(badge.hidden).toBe(false);
    expect(badge.textContent).toBe('2');
  });

  it('posts to the frame with Titan’s origin as the target, once the frame is ready', async () => {
    const ui = await boot();
    ui.launcher()!.click();
    const frame = ui.frame()!;
    const post = windowOf(frame).postMessage;
    localStorage.setItem('titan:acme:support:visitor', '{"token":"t"}');
    titanChat('identify', {
      user_id: 'u1',
    });
    expect(post).not.toHaveBeenCalled();

    fromFrame(frame, { type: 'ready' });
    expect(post).toHaveBeenCalledWith(
      {
        ns: BRIDGE_NS,
        type: 'init',
        open: true,
        identity: { user_id: 'u1' },
        stored: { visitor: '{"token":"t"}' },
      },
      TITAN,
    );
    for (const [, target] of post.mock.calls) expect(target).toBe(TITAN);
  });

  it('keeps the frame’s keys on the host page when asked, and only those', async () => {
    const ui = await boot({ business: 'acme' });
    ui.launcher()!.click();
    const frame = ui.frame()!;
    fromFrame(frame, { type: 'store', key: 'conversation', value: '42' });
    fromFrame(frame, { type: 'store', key: 'other', value: 'x' });
    expect(localStorage.getItem('titan:acme:_:conversation')).toBe('42');
    expect(localStorage.length).toBe(1);
    fromFrame(frame, { type: 'store', key: 'conversation', value: null });
    expect(localStorage.length).toBe(0);
  });

  it('passes the page’s lang to the frame and takes the chat’s words for the launcher', async () => {
    document.documentElement.lang = 'es-MX';
    const ui = await boot();
    ui.launcher()!.click();
    const frame = ui.frame()!;
    expect(new URL(frame.src).searchParams.get('lang')).toBe('es-MX');
    fromFrame(frame, {
      type: 'labels',
      open: 'Abrir el chat, 2 mensajes sin leer',
      close: 'Cerrar el chat',
      dialog: 'Chat',
    });
    expect(ui.launcher()?.getAttribute('aria-label')).toBe('Cerrar el chat');
    fromFrame(frame, { type: 'close' });
    expect(ui.launcher()?.getAttribute('aria-label')).toBe('Abrir el chat, 2 mensajes sin leer');
    // Words from anyone but the frame on Titan's origin are ignored.
    fromFrame(frame, { type: 'labels', open: 'pwned', close: 'pwned', dialog: 'x' }, 'https://evil.example');
    expect(ui.launcher()?.getAttribute('aria-label')).toBe('Abrir el chat, 2 mensajes sin leer');
    document.documentElement.lang = '';
  });

  it('takes the group’s colour and side, and closes when the frame asks', async () => {
    const ui = await boot();
    ui.launcher()!.click();
    fromFrame(ui.frame()!, { type: 'info', color: '#fafafa', position: 'left' });
    expect(ui.launcher()!.style.background).toBe('rgb(250, 250, 250)');
    expect(ui.launcher()!.style.color).toBe('rgb(17, 24, 39)');
    expect(ui.root!.querySelector('.w')!.classList.contains('left')).toBe(true);

    fromFrame(ui.frame()!, { type: 'close' });
    expect(ui.panel()!.hidden).toBe(true);
    expect(ui.launcher()?.getAttribute('aria-expanded')).toBe('false');
  });

  it('runs calls queued before it loaded, with a config object or the queue stub', async () => {
    host().TitanChat = Object.assign(() => undefined, { business: 'acme', q: [['open']] });
    const ui = await boot({});
    expect(ui.frame()?.src).toContain('/widget/frame/acme?host=');
  });

  it('shows the chat as unavailable when the frame never answers', async () => {
    vi.useFakeTimers();
    const ui = await boot();
    ui.launcher()!.click();
    vi.advanceTimersByTime(15_000);
    expect(ui.frame()).toBeNull();
    expect(ui.root!.querySelector('[role="alert"]')?.textContent).toBe('Chat is unavailable right now.');
    // Opening again tries again.
    ui.launcher()!.click();
    ui.launcher()!.click();
    expect(ui.frame()).not.toBeNull();
  });
});
