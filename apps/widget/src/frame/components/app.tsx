// The chat app: the group's visitor form when it has one, then the visitor's conversations, one
// conversation at a time with live messages and files. The visitor session and the open
// conversation survive reloads; unread staff replies are counted for the host page's launcher.
import { useEffect, useMemo, useRef, useState, type CSSProperties } from 'react';
import type {
  TConversation,
  TCreateVisitorRequest,
  TPublicChatInfo,
  TPublicMessage,
  TRealtimeChange,
} from '@titan/contracts';
import { ApiError, publicApi } from '../api';
import type { Bridge } from '../bridge';
import type { TFrameConfig } from '../config';
import { accentColors } from '../format';
import { useChatBoot, type TBootResult } from '../hooks/use-chat-boot';
import {
  pageVisible,
  useEscapeCloses,
  useHostChanges,
  useHostPage,
  useUnreadBadge,
} from '../hooks/use-host-page';
import { useLiveChat } from '../hooks/use-live-chat';
import { useOpenConversation } from '../hooks/use-open-conversation';
import { useStaffAvailability, useVisitorEmail } from '../hooks/use-staff-away';
import { useStaffTyping } from '../hooks/use-staff-typing';
import type { TTopic } from '../realtime';
import {
  mergeMessages,
  sortConversations,
  upsertConversation,
  type TFormValues,
  type TVisitorDetails,
} from '../state';
import { chatStorage, type TStoredVisitor } from '../storage';
import {
  applyDocumentLanguage,
  I18nContext,
  loadTranslator,
  useT,
  visitorLocale,
  type TTranslator,
} from '../i18n';
import { firstView, type TView } from '../view';
import { ChatHeader } from './chat-header';
import { ChatView } from './chat-view';
import { ConversationList } from './conversation-list';
import { VisitorForm } from './visitor-form';

type Props = { config: TFrameConfig; bridge: Bridge };

/**
 * The chat in the visitor's language: the catalogue the page or browser asked for first; once the
 * group's settings are known, its locale (when neither named a shipped one) and its overrides.
 */
export function App({ initialTranslator, ...props }: Props & { initialTranslator: TTranslator }) {
  const [translator, setTranslator] = useState(initialTranslator);
  const onInfo = (info: TPublicChatInfo) => {
    const locale = visitorLocale(props.config.lang, info.locale);
    if (locale === translator.locale && !info.strings[locale]) return;
    loadTranslator(locale, info.strings as Record<string, Record<string, unknown>>).then(
      (next) => {
        applyDocumentLanguage(next);
        setTranslator(next);
      },
      () => {},
    );
  };
  return (
    <I18nContext value={translator}>
      <ChatApp {...props} onInfo={onInfo} />
    </I18nContext>
  );
}

function ChatApp({ config, bridge, onInfo }: Props & { onInfo(info: TPublicChatInfo): void }) {
  const tr = useT();
  const { t } = tr;
  const storage = useMemo(
    () => chatStorage(config.business, config.group, bridge.hostStorage),
    [config, bridge],
  );
  const { host, shown } = useHostPage(bridge);

  const [info, setInfo] = useState<TPublicChatInfo | null>(null);
  const [session, setSession] = useState<TStoredVisitor | null>(null);
  const [view, setView] = useState<TView>({ name: 'loading' });
  const [conversations, setConversations] = useState<TConversation[]>([]);
  const [messages, setMessages] = useState<Record<number, TPublicMessage[]>>({});
  const [loadError, setLoadError] = useState<string | null>(null);
  const [unread, setUnread] = useState<Record<number, number>>({});
  const [focusKey, setFocusKey] = useState(0);
  const [restarts, setRestarts] = useState(0);
  const staffTyping = useStaffTyping(info?.business.name ?? '');
  // Nobody online: the chat asks for an email, unless the visitor's record already has one.
  const away = info !== null && !info.staff_online;
  const token = session?.token ?? null;
  const visitorEmail = useVisitorEmail(away, token);
  useStaffAvailability(config, shown, info !== null, setInfo);

  const clearUnread = (id: number | null) => {
    if (id !== null) setUnread((prev) => (prev[id] ? { ...prev, [id]: 0 } : prev));
  };

  const openChat = (id: number | null) => {
    setView({ name: 'chat', id });
    setLoadError(null);
    clearUnread(id);
    storage.writeConversation(id);
    setFocusKey((k) => k + 1);
  };

  /** The session is gone (expired token, another signed-in user): start over as a new visitor. */
  const reset = () => {
    storage.writeVisitor(null);
    storage.writeConversation(null);
    setSession(null);
    setConversations([]);
    setMessages({});
    setUnread({});
    visitorEmail.forget();
    setView(firstView(info));
  };

  // Boot: the chat's settings, then the stored session resumed or a new visitor's first view.
  useChatBoot({ bridge, config, storage, restarts }, (step: TBootResult) => {
    if (step.kind === 'failed') setView({ name: 'error', message: step.message });
    else if (step.kind === 'info') {
      setInfo(step.info);
      onInfo(step.info);
    } else if (step.kind === 'fresh') setView(step.view);
    else {
      setSession(step.session);
      setConversations(step.conversations);
      setView(step.view);
    }
  });

  // The host page changed: it opened the chat (or the tab came back), so focus it and count what
  // is in view as read; or another user signed in there, whose chat this session is not.
  // Read from the sources: this runs when they change, before React renders the new state.
  const wasShown = useRef(shown);
  useHostChanges(bridge, () => {
    const identityId = bridge.getState().identity?.user_id ?? null;
    if (session && identityId && session.user_id !== identityId) reset();
    const now = bridge.getState().open && pageVisible();
    const opened = now && !wasShown.current;
    wasShown.current = now;
    if (!opened) return;
    setFocusKey((k) => k + 1);
    if (view.name === 'chat') clearUnread(view.id);
  });

  useEscapeCloses(bridge, config.embedded);
  useUnreadBadge(bridge, unread);

  // Live updates for the visitor's conversations.
  const onChange = (change: TRealtimeChange) => {
    if (change.table === 'conversations') {
      setConversations((prev) => upsertConversation(prev, change.new as TConversation));
      return;
    }
    if (change.table !== 'messages') return;
    const message = change.new as TPublicMessage;
    const id = message.conversation_id;
    setMessages((prev) => {
      const current = prev[id];
      return current ? { ...prev, [id]: mergeMessages(current, [message]) } : prev;
    });
    if (message.sender_type !== 'customer') staffTyping.answered(id);
    const watching = shown && view.name === 'chat' && view.id === id;
    if (change.event === 'INSERT' && message.sender_type !== 'customer' && !watching) {
      setUnread((prev) => ({ ...prev, [id]: (prev[id] ?? 0) + 1 }));
    }
  };
  const onResync = (topic: TTopic) => {
    if (!session) return;
    if (topic.topic === 'conversations') {
      publicApi.conversations(session.token).then(
        (list) => setConversations(sortConversations(list)),
        () => {},
      );
    } else {
      const id = topic.conversation_id;
      publicApi.messages(session.token, id).then(
        (list) => setMessages((prev) => ({ ...prev, [id]: mergeMessages(prev[id] ?? [], list) })),
        () => {},
      );
    }
  };

  const sendTyping = useLiveChat(token, config.business, conversations, {
    onChange,
    onResync,
    onUnauthorized: reset,
    onTyping: staffTyping.onTyping,
  });

  const leaveEmail = async (email: string) => {
    if (session) {
      const me = await publicApi.leaveEmail(session.token, email);
      visitorEmail.setEmail(me.email);
    } else {
      await createSession({ email });
      visitorEmail.setEmail(email.toLowerCase());
    }
    visitorEmail.setJustLeft(true);
  };

  // The launcher on the host page speaks the chat's language too (its labels and the unread count).
  const unreadTotal = Object.values(unread).reduce((sum, n) => sum + n, 0);
  useEffect(() => {
    bridge.post({
      type: 'labels',
      open: unreadTotal ? t('launcher_unread', { count: unreadTotal }) : t('launcher_open'),
      close: t('close'),
      dialog: t('chat_title'),
    });
  }, [bridge, t, unreadTotal]);

  // Opening a conversation loads its messages (merged with any that arrived meanwhile).
  const openId = view.name === 'chat' ? view.id : null;
  useOpenConversation(
    token,
    openId,
    (id, list) => setMessages((prev) => ({ ...prev, [id]: mergeMessages(prev[id] ?? [], list) })),
    setLoadError,
  );

  const createSession = async (details: TVisitorDetails): Promise<TStoredVisitor & { earlier: number }> => {
    const identity = bridge.getState().identity;
    const body: TCreateVisitorRequest = {
      business_code: config.business,
      ...(config.group ? { group_slug: config.group } : {}),
      ...(identity?.name ? { name: identity.name } : {}),
      ...(identity?.email ? { email: identity.email } : {}),
      ...(identity?.user_id && identity.user_hash
        ? { user_id: identity.user_id, user_hash: identity.user_hash }
        : {}),
      ...details,
    };
    const created = await publicApi.createVisitor(body);
    const stored = { token: created.token, user_id: identity?.user_id ?? null };
    storage.writeVisitor(stored);
    setSession(stored);
    visitorEmail.setEmail(created.customer.email);
    // A verified user's earlier conversations follow them to this device.
    const earlier = identity?.user_hash
      ? await publicApi.conversations(created.token).catch(() => [] as TConversation[])
      : [];
    setConversations((prev) => earlier.reduce(upsertConversation, prev));
    return { ...stored, earlier: earlier.length };
  };

  /** The visitor and the conversation to write in, created on the first message when needed. */
  const ensureChat = async (): Promise<{ token: string; id: number }> => {
    try {
      const current = session ?? (await createSession({}));
      if (view.name === 'chat' && view.id !== null) return { token: current.token, id: view.id };
      const conversation = await publicApi.startConversation(current.token, config.group);
      setConversations((prev) => upsertConversation(prev, conversation));
      setMessages((prev) => ({ ...prev, [conversation.id]: prev[conversation.id] ?? [] }));
      storage.writeConversation(conversation.id);
      setView({ name: 'chat', id: conversation.id });
      return { token: current.token, id: conversation.id };
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) reset();
      throw err;
    }
  };

  const deliver = async (send: (token: string, id: number) => Promise<TPublicMessage>) => {
    const { token: visitorToken, id } = await ensureChat();
    const message = await send(visitorToken, id);
    setMessages((prev) => ({ ...prev, [id]: mergeMessages(prev[id] ?? [], [message]) }));
  };

  const sendText = (text: string) =>
    deliver((t, id) => publicApi.send(t, id, { message_type: 'text', content: text }));

  const sendFile = (file: File) =>
    deliver(async (t, id) => {
      const uploaded = await publicApi.upload(t, id, file);
      return publicApi.send(t, id, { message_type: 'file', content: uploaded.key });
    });

  const submitForm = async (details: TVisitorDetails) => {
    const { earlier } = await createSession(details);
    if (earlier > 0) {
      setView({ name: 'list' });
      setFocusKey((k) => k + 1);
    } else {
      openChat(null);
    }
  };

  const { accent, onAccent } = accentColors(info?.group?.color);
  const title = info ? (info.group?.name ?? info.business.name) : '';
  const staffName = info?.business.name ?? '';
  useEffect(() => {
    if (title && !config.embedded) document.title = t('page_title', { title });
  }, [title, config.embedded, t]);
  const canGoBack =
    session !== null && (view.name === 'chat' || view.name === 'form') && conversations.length > 0;
  const initialForm: TFormValues = {
    ...(host.identity?.name ? { name: host.identity.name } : {}),
    ...(host.identity?.email ? { email: host.identity.email } : {}),
  };

  return (
    <div
      className={config.embedded ? 'app embedded' : 'app page'}
      style={{ '--accent': accent, '--on-accent': onAccent } as CSSProperties}
    >
      <ChatHeader
        title={title}
        onBack={
          canGoBack
            ? () => {
                setView({ name: 'list' });
                setFocusKey((k) => k + 1);
              }
            : null
        }
        onClose={config.embedded ? () => bridge.post({ type: 'close' }) : null}
      />
      <main className="body">
        {view.name === 'loading' ? (
          <p className="muted center" role="status">
            {t('loading')}
          </p>
        ) : view.name === 'error' ? (
          <div className="center">
            <p className="error" role="alert">
              {view.message}
            </p>
            <button
              type="button"
              className="primary"
              onClick={() => {
                setView({ name: 'loading' });
                setRestarts((n) => n + 1);
              }}
            >
              {t('retry')}
            </button>
          </div>
        ) : view.name === 'form' ? (
          <VisitorForm
            fields={info?.group?.visitor_form ?? []}
            initial={initialForm}
            greeting={info?.group?.greeting ?? ''}
            focusKey={focusKey}
            onSubmit={submitForm}
          />
        ) : view.name === 'list' ? (
          <ConversationList
            conversations={conversations}
            unread={unread}
            focusKey={focusKey}
            onOpen={openChat}
            onStart={() => openChat(null)}
          />
        ) : (
          <ChatView
            greeting={info?.group?.greeting ?? ''}
            staffName={staffName}
            messages={view.id === null ? [] : (messages[view.id] ?? [])}
            loadError={loadError}
            focusKey={focusKey}
            onSendText={sendText}
            onSendFile={sendFile}
            onTyping={openId === null ? undefined : () => sendTyping(openId)}
            typingName={staffTyping.typingIn(view.id)}
            away={
              away &&
              (visitorEmail.email === null ||
                visitorEmail.justLeft ||
                (!session && visitorEmail.email === undefined))
                ? {
                    savedEmail: visitorEmail.justLeft ? (visitorEmail.email ?? null) : null,
                    onSave: leaveEmail,
                  }
                : null
            }
            closed={info?.availability && !info.availability.open ? info.availability : null}
          />
        )}
      </main>
    </div>
  );
}
