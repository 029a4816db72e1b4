// The account mails, as text and HTML, with links built from PUBLIC_URL.
import type { Mail } from '../../platform/mailer';
import { escapeHtml } from '../../platform/html';

function layout(to: string, subject: string, lines: string[], action: { label: string; url: string }): Mail {
  const text = [...lines, '', `${action.label}: ${action.url}`, '', '— Titan'].join('\n');
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#111">
${lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('\n')}
<p><a href="${escapeHtml(action.url)}" style="display:inline-block;padding:10px 16px;background:#111;color:#fff;border-radius:6px;text-decoration:none">${escapeHtml(action.label)}</a></p>
<p style="color:#666;font-size:13px">If the button does not work, open this link: ${escapeHtml(action.url)}</p>
<p>— Titan</p></body></html>`;
  return { to, subject, text, html };
}

export function verificationMail(to: string, firstName: string, url: string): Mail {
  return layout(
    to,
    'Confirm your email address',
    [
      `Hi ${firstName},`,
      'Confirm your email address to finish setting up your Titan account.',
      'The link is valid for 3 days.',
    ],
    { label: 'Confirm email', url },
  );
}

export function accountExistsMail(to: string, firstName: string, loginUrl: string, resetUrl: string): Mail {
  return layout(
    to,
    'Someone tried to sign up with your email address',
    [
      `Hi ${firstName},`,
      'Someone tried to create a Titan account with this email address, but you already have one. Your account has not been changed.',
      `If it was you, log in instead. Forgot your password? Choose a new one: ${resetUrl}`,
      'If it was not you, ignore this mail.',
    ],
    { label: 'Log in', url: loginUrl },
  );
}

export function passwordResetMail(to: string, firstName: string, url: string): Mail {
  return layout(
    to,
    'Reset your password',
    [
      `Hi ${firstName},`,
      'Someone asked to reset the password of your Titan account. If it was you, choose a new password.',
      'The link is valid for one hour and works once. If it was not you, ignore this mail.',
    ],
    { label: 'Choose a new password', url },
  );
}

export function invitationMail(
  to: string,
  businessName: string,
  inviterName: string,
  role: string,
  url: string,
): Mail {
  return layout(
    to,
    `${inviterName} invited you to ${businessName} on Titan`,
    [
      `${inviterName} invited you to join ${businessName} on Titan as ${role}.`,
      'The invitation is valid for 7 days.',
    ],
    { label: 'Accept the invitation', url },
  );
}
