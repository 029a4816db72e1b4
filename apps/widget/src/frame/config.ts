// Where the chat app runs, read from its own URL: the widget frame (/widget/frame/{business}/{group?}
// inside a host page's iframe) or the hosted group chat page (/messages/chat/{business}/g/{group}).

export type TFrameConfig = {
  business: string;
  group: string | null;
  /** Inside an iframe: the host page decides when it is shown and may identify the visitor. */
  embedded: boolean;
  /** The host page's origin, as the loader declared it; messages go to and come from it only. */
  hostOrigin: string | null;
  /** The language of the page the chat is on (the loader passes the host page's `lang`; `?lang=` on
   * the hosted page), the first choice for the chat's own. */
  lang: string | null;
};

const FRAME_PATH = /^\/widget\/frame\/([^/]+)(?:\/([^/]+))?\/?$/;
const HOSTED_PATH = /^\/messages\/chat\/([^/]+)\/g\/([^/]+)\/?$/;
const ORIGIN = /^https?:\/\/[^/?#]+$/i;

function decode(part: string | undefined): string | null {
  if (!part) return null;
  try {
    return decodeURIComponent(part);
  } catch {
    return null;
  }
}

export function readFrameConfig(url: URL, embedded: boolean): TFrameConfig | null {
  const match = FRAME_PATH.exec(url.pathname) ?? HOSTED_PATH.exec(url.pathname);
  const business = decode(match?.[1]);
  if (!business) return null;
  const host = url.searchParams.get('host');
  const lang = url.searchParams.get('lang')?.trim().slice(0, 35) || null;
  return {
    business,
    group: decode(match?.[2]),
    embedded,
    hostOrigin: embedded && host && ORIGIN.test(host) ? host : null,
    lang,
  };
}
