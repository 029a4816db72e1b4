// The chat in the visitor's language (issue 30): which locale is chosen (the page's lang, then the
// browser, then the group's setting), right-to-left Arabic, ICU plurals and dates from the compiled
// catalogues, and the group's overrides winning over the catalogue for their locale only.
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TPublicMessage } from '@titan/contracts';
import { ChatView } from '../components/chat-view';
import { formatListTime } from '../format';
import { applyDocumentLanguage, I18nContext, loadTranslator, visitorLocale, type TTranslator } from '../i18n';
import { TYPING_SEND_EVERY_MS, VisitorSocket } from '../realtime';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const browser = (languages: string[]) => vi.spyOn(navigator, 'languages', 'get').mockReturnValue(languages);

describe('the visitor’s locale', () => {
  it('is the page’s lang first, whatever the browser and the group say', () => {
    browser(['fr-FR', 'en']);
    expect(visitorLocale('es-ES', 'de')).toBe('es');
    expect(visitorLocale('ar', 'de')).toBe('ar');
  });

  it('is the browser’s first shipped language when the page names none we ship', () => {
    browser(['ja-JP', 'pt-BR', 'en']);
    expect(visitorLocale('ja', 'de')).toBe('pt');
    expect(visitorLocale(null, 'de')).toBe('pt');
  });

  it('is the group’s setting when neither page nor browser names a shipped one, else English', () => {
    browser(['ja-JP', 'zh-CN']);
    expect(visitorLocale('ko', 'de')).toBe('de');
    expect(visitorLocale(null, null)).toBe('en');
  });
});

describe('catalogues', () => {
  it('Arabic is laid out right to left on the document, the others left to right', async () => {
    const ar = await loadTranslator('ar');
    expect(ar.dir).toBe('rtl');
    applyDocumentLanguage(ar);
    expect(document.documentElement.getAttribute('dir')).toBe('rtl');
    expect(document.documentElement.lang).toBe('ar');
    const es = await loadTranslator('es');
    expect(es.dir).toBe('ltr');
    applyDocumentLanguage(es);
    expect(document.documentElement.getAttribute('dir')).toBe('ltr');
    expect(document.documentElement.lang).toBe('es');
  });

  it('formats ICU plurals by the locale’s own rules', async () => {
    const en = await loadTranslator('en');
    expect(en.t('unread_count', { count: 1 })).toBe('1 unread');
    expect(en.t('launcher_unread', { count: 3 })).toBe('Open chat, 3 unread messages');
    const ar = await loadTranslator('ar');
    // Arabic has six plural forms: two is a word of its own, 3–10 "few", 11–99 "many".
    expect(ar.t('unread_count', { count: 2 })).toBe('رسالتان غير مقروءتين');
    expect(ar.t('unread_count', { count: 3 })).toBe(
      `${new Intl.NumberFormat('ar').format(3)} رسائل غير مقروءة`,
    );
    expect(ar.t('unread_count', { count: 11 })).toBe(
      `${new Intl.NumberFormat('ar').format(11)} رسالة غير مقروءة`,
    );
    const fr = await loadTranslator('fr');
    expect(fr.t('unread_count', { count: 2 })).toBe('2 non lus');
  });

  it('formats dates in the visitor’s language', async () => {
    const now = new Date(2026, 10, 28, 12, 0);
    const es = await loadTranslator('es');
    expect(formatListTime(new Date(2026, 10, 27, 9, 0).toISOString(), es, now)).toBe('Ayer');
    expect(formatListTime(new Date(2026, 2, 5, 9, 0).toISOString(), es, now)).toBe(
      new Intl.DateTimeFormat('es', { month: 'short', day: 'numeric' }).format(new Date(2026, 2, 5, 9, 0)),
    );
    const de = await loadTranslator('de');
    expect(formatListTime(new Date(2024, 0, 9).toISOString(), de, now)).toBe(
      new Intl.DateTimeFormat('de', { day: 'numeric', month: 'short', year: 'numeric' }).format(
        new Date(2024, 0, 9),
      ),
    );
  });
});

describe('the group’s overrides', () => {
  const overrides = {
    es: { send: 'Mandar', typing: [['name'], ' te está escribiendo'] },
    fr: { send: 'Expédier' },
  };

  it('win over the catalogue for their locale, placeholders included', async () => {
    const es = await loadTranslator('es', overrides);
    expect(es.t('send')).toBe('Mandar');
    expect(es.t('typing', { name: 'Eva' })).toBe('Eva te está escribiendo');
    // Keys not overridden keep the catalogue's words.
    expect(es.t('placeholder')).toBe('Escribe un mensaje...');
  });

  it('of another locale never apply', async () => {
    const de = await loadTranslator('de', overrides);
    expect(de.t('send')).toBe('Senden');
  });
});

describe('a conversation in Arabic', () => {
  let root: Root | null = null;
  let host: HTMLDivElement | null = null;
  afterEach(() => {
    act(() => root?.unmount());
    host?.remove();
  });

  async function render(translator: TTranslator, props: Partial<Parameters<typeof ChatView>[0]> = {}) {
    host = document.createElement('div');
    document.body.appendChild(host);
    root = createRoot(host);
    const message: TPublicMessage = {
      id: 1,
      conversation_id: 7,
      content: 'مرحبا',
      message_type: 'text',
      sender_type: 'customer',
      sender: null,
      meta_data: {},
      created_at: new Date(2026, 10, 28, 9, 5).toISOString(),
    } as unknown as TPublicMessage;
    await act(async () =>
      root!.render(
        <I18nContext value={translator}>
          <ChatView
            greeting=""
            staffName="Shop"
            messages={[message]}
            loadError={null}
            focusKey={0}
            onSendText={async () => {}}
            onSendFile={async () => {}}
            {...props}
          />
        </I18nContext>,
      ),
    );
    return host;
  }

  it('shows every word in Arabic, and who of the staff is typing', async () => {
    const ar = await loadTranslator('ar');
    const view = await render(ar, { typingName: 'ليلى' });
    expect(view.querySelector('textarea')?.getAttribute('placeholder')).toBe('اكتب رسالة...');
    expect(view.querySelector('.send')?.textContent).toBe('إرسال');
    expect(view.querySelector('.who')?.textContent).toBe('أنت');
    expect(view.querySelector('.typing')?.textContent).toBe('ليلى يكتب الآن…');
  });

  it('asks for an email while nobody is online, and thanks with the address once left', async () => {
    const es = await loadTranslator('es');
    const onSave = vi.fn(async () => {});
    const view = await render(es, { away: { savedEmail: null, onSave } });
    expect(view.querySelector('.away-title')?.textContent).toBe('Ahora mismo no estamos disponibles');
    const input = view.querySelector<HTMLInputElement>('#away-email')!;
    const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
    await act(async () => {
      setValue.call(input, 'nope');
      input.dispatchEvent(new Event('input', { bubbles: true }));
    });
    await act(async () => view.querySelector<HTMLFormElement>('form.away')!.requestSubmit());
    expect(view.querySelector('#away-error')?.textContent).toBe('Introduce un correo electrónico válido.');
    expect(onSave).not.toHaveBeenCalled();
    await act(async () => {
      setValue.call(input, 'ana@example.com');
      input.dispatchEvent(new Event('input', { bubbles: true }));
    });
    await act(async () => view.querySelector<HTMLFormElement>('form.away')!.requestSubmit());
    expect(onSave).toHaveBeenCalledWith('ana@example.com');
    act(() => root!.unmount());
    const thanked = await render(es, { away: { savedEmail: 'ana@example.com', onSave } });
    expect(thanked.querySelector('.away')?.textContent).toBe('¡Gracias! Te responderemos a ana@example.com.');
  });
});

describe('outside business hours', () => {
  let root: Root | null = null;
  let host: HTMLDivElement | null = null;
  afterEach(() => {
    act(() => root?.unmount());
    host?.remove();
  });
  async function render(translator: TTranslator, closed: Parameters<typeof ChatView>[0]['closed']) {
    host = document.createElement('div');
    document.body.appendChild(host);
    root = createRoot(host);
    await act(async () =>
      root!.render(
        <I18nContext value={translator}>
          <ChatView
            greeting=""
            staffName="Shop"
            messages={[]}
            loadError={null}
            focusKey={0}
            onSendText={async () => {}}
            onSendFile={async () => {}}
            closed={closed}
          />
        </I18nContext>,
      ),
    );
    return host;
  }

  it('shows the away message and when the team is back, in the visitor’s language', async () => {
    const at = new Date('2026-12-07T08:00:00Z');
    const when = new Intl.DateTimeFormat('fr', {
      weekday: 'long',
      hour: 'numeric',
      minute: '2-digit',
    }).format(at);
    const view = await render(await loadTranslator('fr'), {
      open: false,
      reopens_at: at.toISOString(),
      away_message: 'Nous répondons du lundi au vendredi.',
    });
    const notice = view.querySelector('.closed')!;
    expect(notice.getAttribute('role')).toBe('status');
    expect([...notice.querySelectorAll('p')].map((p) => p.textContent)).toEqual([
      'Nous sommes fermés pour le moment',
      'Nous répondons du lundi au vendredi.',
      `Nous serons de retour ${when}.`,
    ]);
  });

  it('says it answers once back when no opening is ahead, and shows nothing while open', async () => {
    const view = await render(await loadTranslator('de'), {
      open: false,
      reopens_at: null,
      away_message: '',
    });
    expect(view.querySelector('.closed')?.textContent).toBe(
      'Wir sind gerade nicht erreichbarWir antworten, sobald wir wieder da sind.',
    );
    act(() => root!.unmount());
    const open = await render(await loadTranslator('de'), null);
    expect(open.querySelector('.closed')).toBeNull();
  });

  it('every shipped catalogue has the closed and rating strings', async () => {
    for (const locale of ['en', 'es', 'fr', 'de', 'pt', 'ar'] as const) {
      const tr = await loadTranslator(locale);
      for (const key of [
        'closed_title',
        'closed_back_later',
        'csat_question',
        'csat_send',
        'csat_thanks',
      ] as const)
        expect(tr.t(key), `${locale} ${key}`).not.toBe(key);
      expect(tr.t('csat_rating', { rating: 4 })).toMatch(/4|٤/);
    }
  });
});

describe('the satisfaction survey', () => {
  let root: Root | null = null;
  let host: HTMLDivElement | null = null;
  afterEach(() => {
    act(() => root?.unmount());
    host?.remove();
    vi.unstubAllGlobals();
  });

  it('asks for a rating in the visitor’s language and sends it by the survey’s token', async () => {
    const calls: { url: string; method: string; body: unknown }[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit) => {
        calls.push({
          url,
          method: init.method ?? 'GET',
          body: init.body ? JSON.parse(String(init.body)) : null,
        });
        const rated = init.method === 'POST';
        return new Response(
          JSON.stringify({
            status: 'ok',
            message: '',
            result: { business: 'Shop', rating: rated ? 4 : null, comment: null, answered_at: null },
          }),
          { status: 200, headers: { 'content-type': 'application/json' } },
        );
      }),
    );
    const survey = {
      id: 9,
      conversation_id: 7,
      content: 'How would you rate this conversation?',
      message_type: 'text',
      sender_type: 'system',
      sender: null,
      meta_data: { csat: { token: 'tok-abcdefghijklmnop' } },
      created_at: new Date().toISOString(),
    } as unknown as TPublicMessage;
    host = document.createElement('div');
    document.body.appendChild(host);
    root = createRoot(host);
    const es = await loadTranslator('es');
    await act(async () =>
      root!.render(
        <I18nContext value={es}>
          <ChatView
            greeting=""
            staffName="Shop"
            messages={[survey]}
            loadError={null}
            focusKey={0}
            onSendText={async () => {}}
            onSendFile={async () => {}}
          />
        </I18nContext>,
      ),
    );
    const form = host.querySelector<HTMLFormElement>('form.csat')!;
    expect(form.querySelector('.away-title')?.textContent).toBe('¿Cómo valorarías esta conversación?');
    expect([...form.querySelectorAll('.star span.sr-only')].map((s) => s.textContent)).toEqual([
      '1 estrella de 5',
      '2 estrellas de 5',
      '3 estrellas de 5',
      '4 estrellas de 5',
      '5 estrellas de 5',
    ]);
    const send = form.querySelector<HTMLButtonElement>('button[type=submit]')!;
    expect(send.disabled).toBe(true);
    await act(async () => form.querySelectorAll<HTMLInputElement>('input[type=radio]')[3]!.click());
    expect(send.disabled).toBe(false);
    await act(async () => form.requestSubmit());
    expect(calls.at(-1)).toEqual({
      url: '/api/public/csat/tok-abcdefghijklmnop/',
      method: 'POST',
      body: { rating: 4 },
    });
    expect(host.querySelector('.csat-thanks')?.textContent).toBe('¡Gracias por tu valoración!');
  });
});

describe('the visitor’s typing signal', () => {
  it('goes out once per conversation per throttle window, only once connected', () => {
    const sent: string[] = [];
    class FakeSocket {
      static last: FakeSocket;
      onopen: (() => void) | null = null;
      onmessage: ((e: { data: string }) => void) | null = null;
      onclose: (() => void) | null = null;
      constructor() {
        FakeSocket.last = this;
      }
      send(data: string) {
        sent.push(data);
      }
      close() {}
    }
    vi.stubGlobal('WebSocket', FakeSocket);
    const live = new VisitorSocket('tok', { onChange() {}, onResync() {}, onUnauthorized() {} });
    live.typing(7, 1_000);
    expect(sent.filter((s) => s.includes('typing'))).toEqual([]);
    FakeSocket.last.onmessage?.({ data: JSON.stringify({ type: 'ready' }) });
    live.typing(7, 1_000);
    live.typing(7, 1_000 + TYPING_SEND_EVERY_MS - 1);
    live.typing(8, 1_500);
    live.typing(7, 1_000 + TYPING_SEND_EVERY_MS);
    expect(sent.filter((s) => s.includes('typing')).map((s) => JSON.parse(s))).toEqual([
      { type: 'typing', conversation_id: 7 },
      { type: 'typing', conversation_id: 8 },
      { type: 'typing', conversation_id: 7 },
    ]);
    live.close();
  });
});
