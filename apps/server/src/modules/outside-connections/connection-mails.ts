// The mail that tells a business one of its outside connections stopped working.
import type { Mail } from '../../platform/mailer';
import { escapeHtml } from '../../platform/html';

export function connectionExpiredMail(
  to: string,
  kind: 'MCP server' | 'plugin',
  name: string,
  url: string,
): Mail {
  const lines = [
    `Titan can no longer use the ${kind} “${name}”: its authorization was revoked or has expired.`,
    'Your agents cannot call its tools until someone reconnects it. Nothing else is affected.',
  ];
  const text = [...lines, '', `Reconnect it: ${url}`, '', '— Titan'].join('\n');
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#111">
${lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('\n')}
<p><a href="${escapeHtml(url)}">Reconnect it in Settings</a></p>
<p>— Titan</p></body></html>`;
  return { to, subject: `Reconnect ${name} in Titan`, text, html };
}
