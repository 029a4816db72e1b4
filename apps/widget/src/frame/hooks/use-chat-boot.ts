// Boot: wait for the host page's identity, read the chat's settings, resume a stored session (its
// conversations, and the one last open) or start over as a new visitor.
import { useEffect, useEffectEvent } from 'react';
import type { TConversation, TPublicChatInfo } from '@titan/contracts';

import { ApiError, errorText, publicApi } from '../api';
import type { Bridge } from '../bridge';
import type { TFrameConfig } from '../config';
import { DEFAULT_COLOR } from '../format';
import { sortConversations } from '../state';
import type { ChatStorage, TStoredVisitor } from '../storage';
import { useT } from '../i18n';
import { firstView, type TView } from '../view';

export type TBootResult =
  | { kind: 'failed'; message: string }
  | { kind: 'info'; info: TPublicChatInfo }
  | { kind: 'resumed'; session: TStoredVisitor; conversations: TConversation[]; view: TView }
  | { kind: 'fresh'; view: TView };

/** Runs the boot for this frame, again whenever `restarts` changes ("Try again"); `onStep` gets each
 * step's outcome (the chat's settings first, then the session resumed or not, or the failure). */
export function useChatBoot(
  {
    bridge,
    config,
    storage,
    restarts,
  }: { bridge: Bridge; config: TFrameConfig; storage: ChatStorage; restarts: number },
  onStep: (step: TBootResult) => void,
) {
  const tr = useT();
  const report = useEffectEvent(onStep);
  const failure = useEffectEvent((err: unknown) => errorText(err, tr.t('unavailable'), tr));
  useEffect(() => {
    let cancelled = false;
    void (async () => {
      await bridge.initialized;
      let chatInfo: TPublicChatInfo;
      try {
        chatInfo = await publicApi.info(config.business, config.group);
      } catch (err) {
        if (!cancelled) report({ kind: 'failed', message: failure(err) });
        return;
      }
      if (cancelled) return;
      report({ kind: 'info', info: chatInfo });
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
          const last = storage.readConversation();
          report({
            kind: 'resumed',
            session: stored,
            conversations: list,
            view:
              last && list.some((c) => c.id === last)
                ? { name: 'chat', id: last }
                : list.length > 0
                  ? { name: 'list' }
                  : { name: 'chat', id: null },
          });
          return;
        } catch (err) {
          if (cancelled) return;
          if (!(err instanceof ApiError && err.status === 401)) {
            report({ kind: 'failed', message: failure(err) });
            return;
          }
        }
      }
      storage.writeVisitor(null);
      storage.writeConversation(null);
      report({ kind: 'fresh', view: firstView(chatInfo) });
    })();
    return () => {
      cancelled = true;
    };
  }, [bridge, config, storage, restarts]);
}
