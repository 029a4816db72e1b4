// Open and click tracking for email (engage.md §2 "Tracking"): mail is instrumented with signed
// links and a pixel; hits are verified in-process (no lookup), classified human or machine, and
// recorded on the send through the spine in small batches. Machine hits (privacy proxies, link
// scanners, HEAD probes, clicks within seconds of sending) are kept with their reason but never
// raise the send's status, so metrics can show human and total counts.
import type { Logger } from 'pino';
import type { Db } from '../../db/client';
import { type ObservedEvent, recordSendEvents } from '../sends';
import {
  isTrackableUrl,
  signToken,
  trackingKey,
  verifyToken,
  type TrackingKey,
} from './email-tracking.tokens';

export { isTrackableUrl };

/** 1×1 transparent GIF (43 bytes). */
export const PIXEL_GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

/** A click this soon after the mail went to the mail server is a scanner's, not a reader's. */
export const MACHINE_CLICK_WINDOW_MS = 5_000;

/** Links marked with this attribute are left alone (besides mailto:, tel:, anchors, unsubscribe). */
export const NO_TRACK_ATTRIBUTE = 'data-titan-no-track';

const keys = new Map<string, TrackingKey>();
/** HKDF once per secret, not per mail. */
function keyFor(secret: string): TrackingKey {
  let key = keys.get(secret);
  if (!key) {
    key = trackingKey(secret);
    keys.set(secret, key);
  }
  return key;
}

export const openUrl = (publicUrl: string, key: TrackingKey, sendId: string) =>
  `${publicUrl}/t/o/${signToken(key, { kind: 'open', sendId })}.gif`;

export const clickUrl = (publicUrl: string, key: TrackingKey, sendId: string, url: string) =>
  `${publicUrl}/t/c/${signToken(key, { kind: 'click', sendId, url })}`;

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** An attribute value as the browser reads it (`&amp;` in an href is `&`). */
function decodeAttribute(value: string): string {
  return value.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code =
        name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

const A_TAG = /<a\b[^>]*>/gi;
const HREF = /(\shref\s*=\s*)(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/i;

/**
 * The mail's HTML with every http(s) link of an `<a>` going through Titan's signed click redirect
 * and a 1×1 open pixel before `</body>` (or at the end). Left alone: mailto:, tel:, #anchors and
 * other schemes, the unsubscribe links (under `{publicUrl}/engage/unsubscribe` or
 * `/api/email/unsubscribe/`), and links marked `data-titan-no-track`.
 */
export function instrumentHtml(
  html: string,
  sendId: string,
  opts: { publicUrl: string; secret: string },
): string {
  const key = keyFor(opts.secret);
  const base = opts.publicUrl.replace(/\/+$/, '');
  const untracked = [
    `${base}/engage/unsubscribe`,
    `${base}/api/email/unsubscribe`,
    `${base}/p/`,
    `${base}/t/`,
  ];
  const linked = html.replace(A_TAG, (tag) => {
    if (tag.toLowerCase().includes(NO_TRACK_ATTRIBUTE)) return tag;
    const match = HREF.exec(tag);
    if (!match) return tag;
    const url = decodeAttribute((match[2] ?? match[3] ?? match[4] ?? '').trim());
    if (!isTrackableUrl(url) || untracked.some((u) => url.startsWith(u))) return tag;
    const replaced = `${match[1]}"${clickUrl(base, key, sendId, url)}"`;
    return tag.slice(0, match.index) + replaced + tag.slice(match.index + match[0].length);
  });
  const pixel =
    `<img src="${openUrl(base, key, sendId)}" width="1" height="1" alt="" ` +
    `style="display:block;width:1px;height:1px;border:0;margin:0;padding:0" />`;
  const close = linked.search(/<\/body\s*>(?![\s\S]*<\/body\s*>)/i);
  return close === -1 ? `${linked}${pixel}` : `${linked.slice(0, close)}${pixel}${linked.slice(close)}`;
}

// ---- Machine hits ----

/**
 * User agents of privacy proxies (they fetch every image when the mail arrives) and link scanners
 * (they follow every link before the reader sees it). Matched case-insensitively.
 */
const MACHINE_AGENTS: [RegExp, string][] = [
  [/GoogleImageProxy|ggpht\.com/i, 'google_image_proxy'],
  [/YahooMailProxy|Yahoo! Slurp/i, 'yahoo_proxy'],
  [/^Mozilla\/5\.0$/, 'apple_mail_privacy_protection'],
  [
    /BingPreview|SafeLinks|ms-office|Microsoft Office Protocol Discovery|Microsoft Office Existence Discovery/i,
    'microsoft_scanner',
  ],
  [/Barracuda/i, 'barracuda'],
  [/Proofpoint|urldefense/i, 'proofpoint'],
  [/Mimecast/i, 'mimecast'],
  [
    /Symantec|Trend ?Micro|Forcepoint|IronPort|Cisco|FireEye|Sophos|Zscaler|Cloudmark|Forti(Guard|net)|Avanan|Check ?Point|Trustwave|SpamTitan|Hornet/i,
    'security_scanner',
  ],
  [
    /HeadlessChrome|PhantomJS|python-requests|python-urllib|aiohttp|curl\/|Wget|Go-http-client|okhttp|Java\/|libwww|node-fetch|undici|axios/i,
    'http_library',
  ],
  [/bot\b|crawler|spider|preview|facebookexternalhit|Slackbot|WhatsApp\//i, 'bot'],
];

export type HitClass = { machine: boolean; reason: string | null };

/** Whether a hit looks automated, and why (the timing rule is applied when it is recorded). */
export function classifyHit(method: string, userAgent: string | undefined): HitClass {
  if (method === 'HEAD') return { machine: true, reason: 'head_request' };
  const agent = (userAgent ?? '').trim();
  if (!agent) return { machine: true, reason: 'no_user_agent' };
  for (const [pattern, reason] of MACHINE_AGENTS) if (pattern.test(agent)) return { machine: true, reason };
  return { machine: false, reason: null };
}

// ---- Recording ----

export type TrackingHit = {
  token: string;
  method: string;
  userAgent: string | undefined;
  ip: string | undefined;
};

/**
 * Hits waiting for their statement, written by one loop: started `flushMs` after the first hit
 * (or at once at `maxBatch`), it writes up to `maxBatch` at a time, back to back, until none are
 * left — so under load the batches grow with the database's pace and no hit starts a flush of its
 * own. An answered hit is at most `flushMs` (plus the statements before it) from the database; a
 * crash loses at most those. Beyond `maxPending` (the database far behind) new hits are dropped
 * and counted.
 */
export class TrackingRecorder {
  private pending: ObservedEvent[] = [];
  private timer: NodeJS.Timeout | null = null;
  private loop: Promise<void> | null = null;
  dropped = 0;

  constructor(
    private readonly db: Db,
    private readonly logger: Pick<Logger, 'warn' | 'error'>,
    private readonly options: {
      flushMs: number;
      maxBatch: number;
      maxPending: number;
      machineWindowMs: number;
    },
  ) {}

  add(event: ObservedEvent): void {
    if (this.pending.length >= this.options.maxPending) {
      // The database is far behind: answering stays fast, and the loss is said, not silent.
      if (this.dropped++ % 1000 === 0)
        this.logger.warn(
          { dropped: this.dropped },
          'email tracking: hits dropped, the database is not keeping up',
        );
      return;
    }
    this.pending.push(event);
    // A running loop takes it with the next batch.
    if (this.loop) return;
    if (this.pending.length >= this.options.maxBatch) this.start();
    else this.timer ??= setTimeout(() => this.start(), this.options.flushMs);
  }

  /** Writes everything added so far; resolves when it is in the database. */
  async flush(): Promise<void> {
    while (this.pending.length > 0 || this.loop) {
      if (!this.loop) this.start();
      await this.loop;
    }
  }

  private start(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    if (this.loop || this.pending.length === 0) return;
    this.loop = (async () => {
      while (this.pending.length > 0) await this.write(this.pending.splice(0, this.options.maxBatch));
    })().finally(() => {
      this.loop = null;
      // Hits added between the loop's last look and now.
      if (this.pending.length > 0) this.timer ??= setTimeout(() => this.start(), this.options.flushMs);
    });
  }

  private async write(batch: ObservedEvent[]): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await recordSendEvents(this.db, batch, { machineWindowMs: this.options.machineWindowMs });
        return;
      } catch (err) {
        if (attempt >= 2) {
          this.logger.error({ err, events: batch.length }, 'email tracking: events could not be recorded');
          return;
        }
      }
    }
  }
}

export type EmailTracking = {
  key: TrackingKey;
  recorder: TrackingRecorder;
};

export function createEmailTracking(
  db: Db,
  appSecret: string,
  logger: Pick<Logger, 'warn' | 'error'>,
  options: Partial<ConstructorParameters<typeof TrackingRecorder>[2]> = {},
): EmailTracking {
  return {
    key: keyFor(appSecret),
    recorder: new TrackingRecorder(db, logger, {
      flushMs: 10,
      maxBatch: 500,
      maxPending: 50_000,
      machineWindowMs: MACHINE_CLICK_WINDOW_MS,
      ...options,
    }),
  };
}

function observed(type: 'opened' | 'clicked', sendId: string, hit: TrackingHit, url?: string): ObservedEvent {
  const { machine, reason } = classifyHit(hit.method, hit.userAgent);
  return {
    sendId,
    type,
    occurredAt: new Date(),
    payload: {
      ...(url !== undefined ? { url } : {}),
      user_agent: hit.userAgent ?? null,
      ...(hit.ip ? { ip: hit.ip } : {}),
      machine,
      ...(reason ? { reason } : {}),
    },
    raise: !machine,
  };
}

/** An open pixel was fetched: recorded when its token is ours (the GIF is answered either way). */
export function trackOpen(tracking: EmailTracking, hit: TrackingHit): boolean {
  const token = verifyToken(tracking.key, hit.token.replace(/\.gif$/i, ''));
  if (token?.kind !== 'open') return false;
  tracking.recorder.add(observed('opened', token.sendId, hit));
  return true;
}

/** A click token's send and signed destination when the token is ours; null otherwise. */
export function clickOf(tracking: EmailTracking, token: string): { sendId: string; url: string } | null {
  const verified = verifyToken(tracking.key, token);
  return verified?.kind === 'click' ? verified : null;
}

/** A link was followed: the signed destination (recorded), or null for a token that is not ours. */
export function trackClick(
  tracking: EmailTracking,
  hit: TrackingHit,
  click = clickOf(tracking, hit.token),
): string | null {
  if (!click) return null;
  tracking.recorder.add(observed('clicked', click.sendId, hit, click.url));
  return click.url;
}
