// The email for what stays unread: every minute, the notifications unread for `emailAfterMs` (15
// minutes) are claimed in one statement (`email_claimed_at` set, rows another instance is claiming
// skipped), so each is mailed at most once however many instances run the job; then each member
// gets one mail listing theirs, through the account mail path (platform/mailer: SMTP, else the
// development outbox; a failed delivery is retried from its queue). The member's email preference
// and their right to see the conversation are read again at sending time.
import type { TNotificationType } from '@titan/contracts';
import { escapeHtml } from '../../platform/html';
import { findUserById } from '../auth';
import { findBusinessById } from '../business';
import { loadChangedRow } from '../conversations';
import type { TConversation } from '@titan/contracts';
import { memberSees } from './notifications.derive';
import * as repo from './notifications.repository';
import { getPreferences, type NotificationDeps } from './notifications.service';

export const NOTIFICATIONS_EMAIL_QUEUE = 'notifications.email-unread';
export const NOTIFICATIONS_EMAIL_CRON = '* * * * *';
const BATCH = 500;

const conversationUrl = (publicUrl: string, id: number | null) =>
  id === null ? `${publicUrl}/messages` : `${publicUrl}/messages?conversation=${id}`;

/** Claims and mails what is due; how many mails went out. */
export async function emailUnreadNotifications(deps: NotificationDeps, now = new Date()): Promise<number> {
  const claimed = await repo.claimUnreadForEmail(deps.db, new Date(now.getTime() - deps.emailAfterMs), BATCH);
  const byMember = new Map<string, repo.NotificationRow[]>();
  for (const row of claimed) {
    const key = `${row.businessId}:${row.userId}`;
    byMember.set(key, [...(byMember.get(key) ?? []), row]);
  }
  let sent = 0;
  for (const rows of byMember.values()) {
    const { businessId, userId } = rows[0]!;
    const prefs = await getPreferences(deps.db, businessId, userId);
    const due: repo.NotificationRow[] = [];
    for (const row of rows) {
      if (!prefs[row.type as TNotificationType].email) continue;
      if (row.conversationId !== null) {
        const conv = await loadChangedRow(deps.inbox, 'conversations', String(row.conversationId));
        if (!conv || conv.businessId !== businessId) continue;
        if (!(await memberSees(deps, businessId, userId, conv.row as TConversation))) continue;
      }
      due.push(row);
    }
    if (due.length === 0) continue;
    const [user, business] = await Promise.all([
      findUserById(deps.db, userId),
      findBusinessById(deps.db, businessId),
    ]);
    if (!user || !business) continue;
    const settings = `${deps.config.PUBLIC_URL}/engage/settings/notifications`;
    const subject =
      due.length === 1
        ? `Unread in ${business.name}: ${due[0]!.title}`
        : `${due.length} unread notifications in ${business.name}`;
    const lines = due.map((n) =>
      [
        n.title,
        n.body ? `  ${n.body}` : null,
        `  ${conversationUrl(deps.config.PUBLIC_URL, n.conversationId)}`,
      ]
        .filter(Boolean)
        .join('\n'),
    );
    const text = [
      `You have ${due.length === 1 ? 'a notification' : `${due.length} notifications`} unread for 15 minutes in ${business.name}:`,
      '',
      ...lines,
      '',
      `Choose what Titan emails you: ${settings}`,
    ].join('\n');
    const html = [
      `<p>You have ${due.length === 1 ? 'a notification' : `${due.length} notifications`} unread for 15 minutes in ${escapeHtml(business.name)}:</p>`,
      '<ul>',
      ...due.map(
        (n) =>
          `<li><a href="${escapeHtml(conversationUrl(deps.config.PUBLIC_URL, n.conversationId))}">${escapeHtml(n.title)}</a>` +
          (n.body ? `<br>${escapeHtml(n.body)}` : '') +
          '</li>',
      ),
      '</ul>',
      `<p><a href="${escapeHtml(settings)}">Choose what Titan emails you</a></p>`,
    ].join('\n');
    await deps.mailer.send({ to: user.email, subject, text, html });
    sent++;
  }
  return sent;
}
