// Opening a conversation loads its messages (merged with any that arrived meanwhile by the caller).
import { useEffect, useEffectEvent } from 'react';
import type { TPublicMessage } from '@titan/contracts';

import { errorText, publicApi } from '../api';
import { useT } from '../i18n';

export function useOpenConversation(
  token: string | null,
  openId: number | null,
  onLoaded: (id: number, messages: TPublicMessage[]) => void,
  onFailed: (message: string) => void,
) {
  const tr = useT();
  const loaded = useEffectEvent(onLoaded);
  const failed = useEffectEvent((err: unknown) => onFailed(errorText(err, tr.t('generic_error'), tr)));
  useEffect(() => {
    if (!token || openId === null) return;
    let cancelled = false;
    publicApi.messages(token, openId).then(
      (list) => {
        if (!cancelled) loaded(openId, list);
      },
      (err: unknown) => {
        if (!cancelled) failed(err);
      },
    );
    return () => {
      cancelled = true;
    };
  }, [token, openId]);
}
