// What a customer gets (or would get), rendered: an email's subject and HTML in a sandboxed frame
// (no scripts, no same-origin access), or the text of an SMS or WhatsApp message.
import type { TAgentChannel, TAgentRendered } from '@titan/contracts';

import { AGENT_STRINGS } from '../strings';
import { withoutWebFonts } from '../../../lib/email-fonts';

const P = AGENT_STRINGS.preview;

export function RenderedMessage({
  channel,
  rendered,
  recipient,
}: {
  channel: TAgentChannel;
  rendered: TAgentRendered;
  recipient: string;
}) {
  if (channel === 'email' && rendered.html) {
    return (
      <div className="grid gap-2">
        {rendered.subject ? (
          <p className="text-sm">
            <span className="font-medium">{P.subject}: </span>
            {rendered.subject}
          </p>
        ) : null}
        <iframe
          title={P.frame(recipient)}
          sandbox=""
          srcDoc={withoutWebFonts(rendered.html)}
          className="h-80 w-full rounded-md border bg-white"
        />
      </div>
    );
  }
  return (
    <div className="grid gap-2">
      {rendered.subject ? (
        <p className="text-sm">
          <span className="font-medium">{P.subject}: </span>
          {rendered.subject}
        </p>
      ) : null}
      <p className="max-w-prose rounded-lg bg-muted p-3 text-sm whitespace-pre-wrap">{rendered.text ?? ''}</p>
    </div>
  );
}
