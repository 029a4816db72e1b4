// The chat app: the group's visitor form when it has one, then the visitor's conversations, one
// conversation at a time with live messages and files. The visitor session and the open
// conversation survive reloads; unread staff replies are counted for the host page's launcher.
import {
  useEffect,
  useEffectEvent,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
  type CSSProperties,
} from 'react';
import type {
  TConversation,
  TCreateVisitorRequest,
  TPublicChatInfo,
  TPublicMessage,
  TRealtimeChange,
} from '@titan/contracts';
import { ApiError, errorText, publicApi } from '../api';
import type { Bridge } from '../bridge';
import type { TFrameConfig } from '../config';
import { accentColors, DEFAULT_COLOR } from '../format';
import { VisitorSocket, type TTopic } from '../realtime';
import {
  mergeMessages,
  sortConversations,
  upsertConversation,
  type TFormValues,
  type TVisitorDetails,
} from '../state';
import { chatStorage, type TStoredVisitor } from '../storage';
import { TEXT } from '../text';
import { ChatView } from './chat-view';
import { ConversationList } from './conversation-list';
import { VisitorForm } from './visitor-form';

type View =
  | { name: 'loading' }
  | { name: 'error'; message: string }
  | { name: 'form' }
  | { name: 'list' }
  | { name: 'chat'; id: number | null };

/** Live message feeds are kept for this many of the visitor's most recent conversations. */
const FOLLOWED_CONVERSATIONS = 20;

function subscribePageVisibility(listener: () => void) {
  document.addEventListener('visibilitychange', listener);
  return () => document.removeEventListener('visibilitychange', listener);
}
const pageVisible = () => document.visibilityState === 'visible';

type Props = { config: TFrameConfig; bridge: Bridge };

export function App({ config, bridge }: Props) {
  const storage = useMemo(
    () => chatStorage(config.business, config.group, bridge.hostStorage),
    [config, bridge],
  );
  const host = useSyncExternalStore(bridge.subscribe, bridge.getState);
  const shown = useSyncExternalStore(subscribePageVisibility, pageVisible) && host.open;

  const [info, setInfo] = useState<TPublicChatInfo | null>(null);
  const [session, setSession] = useState<TStoredVisitor | null>(null);
  const [view, setView] = useState<View>({ name: 'loading' });
  const [conversations, setConversations] = useState<TConversation[]>([]);
  const [messages, setMessages] = useState<Record<number, TPublicMessage[]>>({});
  const [loadError, setLoadError] = useState<string | null>(null);
  const [unread, setUnread] = useState<Record<number, number>>({});
  const [focusKey, setFocusKey] = useState(0);
  const [restarts, setRestarts] = useState(0);

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

  const firstView = (chatInfo: TPublicChatInfo | null): View =>
    chatInfo?.group?.visitor_form.length ? { name: 'form' } : { name: 'chat', id: null };

  /** The session is gone (expired token, another signed-in user): start over as a new visitor. */
  const reset = () => {
    storage.writeVisitor(null);
    storage.writeConversation(null);
    setSession(null);
    setConversations([]);
    setMessages({});
    setUnread({});
    setView(firstView(info));
  };

  // Boot: wait for the host page's identity, read the chat's settings, resume a stored session.
  useEffect(() => {
    let cancelled = false;
    void (async () => {
      await bridge.initialized;
      let chatInfo: TPublicChatInfo;
      try {
        chatInfo = await publicApi.info(config.business, config.group);
      } catch (err) {
        if (!cancelled) setView({ name: 'error', message: errorText(err, TEXT.unavailable) });
        return;
      }
      if (cancelled) return;
      setInfo(chatInfo);
      bridge.post({
        type: 'info',
        color: chatInfo.group?.color ?? DEFAULT_COLOR,
        position: chatInfo.group?.launcher_position ?? 'right',
      });
      const identity = bridge.getState().identity;
      let stored = storage.readVisitor();
      if (stored && identity?.user_id && stored.user_id !== identity.user_id) stored = null;
      if (stored) {
        try {
          const list = sortConversations(await publicApi.conversations(stored.token));
          if (cancelled) return;
          setSession(stored);
          setConversations(list);
          const last = storage.readConversation();
          setView(
            last && list.some((c) => c.id === last)
              ? { name: 'chat', id: last }
              : list.length > 0
                ? { name: 'list' }
                : { name: 'chat', id: null },
          );
          return;
        } catch (err) {
          if (cancelled) return;
          if (!(err instanceof ApiError && err.status === 401)) {
            setView({ name: 'error', message: errorText(err, TEXT.unavailable) });
            return;
          }
        }
      }
      storage.writeVisitor(null);
      storage.writeConversation(null);
      setView(firstView(chatInfo));
    })();
    return () => {
      cancelled = true;
    };
    // `restarts` re-runs the boot after a failed load ("Try again").
  }, [bridge, config, storage, restarts]);

  // The host page changed: it opened the chat (or the tab came back), so focus it and count what
  // is in view as read; or another user signed in there, whose chat this session is not.
  // Read from the sources: this runs when they change, before React renders the new state.
  const wasShown = useRef(shown);
  const onHostChange = useEffectEvent(() => {
    const identityId = bridge.getState().identity?.user_id ?? null;
    if (session && identityId && session.user_id !== identityId) reset();
    const now = bridge.getState().open && pageVisible();
    const opened = now && !wasShown.current;
    wasShown.current = now;
    if (!opened) return;
    setFocusKey((k) => k + 1);
    if (view.name === 'chat') clearUnread(view.id);
  });
  useEffect(() => {
    const notify = () => onHostChange();
    const offBridge = bridge.subscribe(notify);
    document.addEventListener('visibilitychange', notify);
    return () => {
      offBridge();
      document.removeEventListener('visibilitychange', notify);
    };
  }, [bridge]);

  // Escape closes the embedded chat, as it would a dialog.
  useEffect(() => {
    if (!config.embedded) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') bridge.post({ type: 'close' });
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [bridge, config.embedded]);

  const totalUnread = Object.values(unread).reduce((sum, n) => sum + n, 0);
  useEffect(() => bridge.post({ type: 'unread', count: totalUnread }), [bridge, totalUnread]);

  // Live updates for the visitor's conversations.
  const onChange = useEffectEvent((change: TRealtimeChange) => {
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
    const watching = shown && view.name === 'chat' && view.id === id;
    if (change.event === 'INSERT' && message.sender_type !== 'customer' && !watching) {
      setUnread((prev) => ({ ...prev, [id]: (prev[id] ?? 0) + 1 }));
    }
  });
  const onResync = useEffectEvent((topic: TTopic) => {
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
  });
  const onUnauthorized = useEffectEvent(() => reset());

  const token = session?.token ?? null;
  const socketRef = useRef<VisitorSocket | null>(null);
  useEffect(() => {
    if (!token) return;
    const live = new VisitorSocket(token, {
      onChange: (change) => onChange(change),
      onResync: (topic) => onResync(topic),
      onUnauthorized: () => onUnauthorized(),
    });
    live.subscribe('conversations', { topic: 'conversations', business_code: config.business });
    socketRef.current = live;
    return () => {
      live.close();
      if (socketRef.current === live) socketRef.current = null;
    };
  }, [token, config.business]);
  // Runs after the socket effect whenever the token changes, so a new socket follows them too.
  useEffect(() => {
    const live = socketRef.current;
    if (!live) return;
    for (const conversation of conversations.slice(0, FOLLOWED_CONVERSATIONS)) {
      live.subscribe(`m${conversation.id}`, { topic: 'messages', conversation_id: conversation.id });
    }
  }, [token, conversations]);

  // Opening a conversation loads its messages (merged with any that arrived meanwhile).
  const openId = view.name === 'chat' ? view.id : null;
  useEffect(() => {
    if (!token || openId === null) return;
    let cancelled = false;
    publicApi.messages(token, openId).then(
      (list) => {
        if (!cancelled)
          setMessages((prev) => ({ ...prev, [openId]: mergeMessages(prev[openId] ?? [], list) }));
      },
      (err: unknown) => {
        if (!cancelled) setLoadError(errorText(err, TEXT.generic));
      },
    );
    return () => {
      cancelled = true;
    };
  }, [token, openId]);

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
    if (title && !config.embedded) document.title = `${title} · Chat`;
  }, [title, config.embedded]);
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
      <header className="head">
        {canGoBack ? (
          <button
            type="button"
            className="icon"
            aria-label={TEXT.back}
            onClick={() => {
              setView({ name: 'list' });
              setFocusKey((k) => k + 1);
            }}
          >
            <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
              <path d="M15 18l-6-6 6-6" fill="none" stroke="currentColor" strokeWidth="2" />
            </svg>
          </button>
        ) : null}
        <h1>{title || TEXT.loading}</h1>
        {config.embedded ? (
          <button
            type="button"
            className="icon"
            aria-label={TEXT.close}
            onClick={() => bridge.post({ type: 'close' })}
          >
            <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
              <path d="M6 6l12 12M18 6L6 18" fill="none" stroke="currentColor" strokeWidth="2" />
            </svg>
          </button>
        ) : null}
      </header>
      <main className="body">
        {view.name === 'loading' ? (
          <p className="muted center" role="status">
            {TEXT.loading}
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
              {TEXT.retry}
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
          />
        )}
      </main>
    </div>
  );
}
