// Whether anyone on the team is online, and the visitor's email while nobody is: the chat asks for an
// email then, unless the visitor's record already has one. While the chat is shown, whether anyone
// is online (and the opening hours) is looked up again now and then.
import { useEffect, useState, type Dispatch, type SetStateAction } from 'react';
import type { TPublicChatInfo } from '@titan/contracts';

import { publicApi } from '../api';
import type { TFrameConfig } from '../config';

/** While the chat is shown, whether anyone is online is asked again this often. */
const STAFF_CHECK_MS = 60_000;

/** Polls the chat's availability while it is shown, updating `info` only when it changed. */
export function useStaffAvailability(
  config: TFrameConfig,
  shown: boolean,
  hasInfo: boolean,
  setInfo: Dispatch<SetStateAction<TPublicChatInfo | null>>,
) {
  useEffect(() => {
    if (!shown || !hasInfo) return;
    const timer = setInterval(() => {
      publicApi.info(config.business, config.group).then(
        (next) =>
          setInfo((prev) =>
            prev &&
            (prev.staff_online !== next.staff_online ||
              prev.availability?.open !== next.availability?.open ||
              prev.availability?.reopens_at !== next.availability?.reopens_at)
              ? { ...prev, staff_online: next.staff_online, availability: next.availability }
              : prev,
          ),
        () => {},
      );
    }, STAFF_CHECK_MS);
    return () => clearInterval(timer);
  }, [shown, hasInfo, config, setInfo]);
}

/**
 * The visitor's email as their record has it (undefined: not known yet), read when nobody is online
 * and the visitor has a session; `justLeft` once they typed one in this chat.
 */
export function useVisitorEmail(away: boolean, token: string | null) {
  const [email, setEmail] = useState<string | null | undefined>(undefined);
  const [justLeft, setJustLeft] = useState(false);
  useEffect(() => {
    if (!away || !token || email !== undefined) return;
    let cancelled = false;
    publicApi.me(token).then(
      (me) => {
        if (!cancelled) setEmail(me.email);
      },
      () => {},
    );
    return () => {
      cancelled = true;
    };
  }, [away, token, email]);
  const forget = () => {
    setEmail(undefined);
    setJustLeft(false);
  };
  return { email, setEmail, justLeft, setJustLeft, forget };
}
