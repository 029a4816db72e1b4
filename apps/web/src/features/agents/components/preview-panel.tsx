// "What would the agent send?": a dry run on a few customers of the audience (POST …/preview/),
// each answer rendered as the customer would see it, with the agent's reason. Nothing is sent; the
// preview is recorded as a run whose steps the run log shows.
import { AGENT_PREVIEW_MAX, type TAgent, type TAgentChannel } from '@titan/contracts';
import { useState } from 'react';
import { Link } from 'react-router';

import { SectionLoading } from '../../../components/load-state';
import { StatusBadge } from '../../../components/status-badge';
import { Button } from '../../../components/ui/button';
import { Label } from '../../../components/ui/label';
import { NativeSelect } from '../../../components/ui/native-select';
import { agentRunPath } from '../../../config/paths';
import { apiErrorMessage } from '../../../lib/api-errors';
import { usePreviewAgent } from '../api/preview-agent';
import { AGENT_STRINGS } from '../strings';
import { customerLabel } from '../utils/customer-label';
import { RenderedMessage } from './rendered-message';
import { Section } from './section';

const P = AGENT_STRINGS.preview;
const SIZES = [1, 3, 5, 10, AGENT_PREVIEW_MAX];

export function PreviewPanel({ agent, dirty }: { agent: TAgent; dirty: boolean }) {
  const channels = agent.config?.channels.map((c) => c.channel) ?? [];
  const [channel, setChannel] = useState<TAgentChannel | ''>(channels[0] ?? '');
  const [size, setSize] = useState(3);
  const preview = usePreviewAgent();
  const ready = Boolean(agent.config) && channel !== '';

  return (
    <Section title={P.title} hint={P.description}>
      <div className="flex flex-wrap items-end gap-4">
        <div className="grid gap-2">
          <Label htmlFor="agent-preview-channel">{P.channel}</Label>
          <NativeSelect
            id="agent-preview-channel"
            value={channel}
            onChange={(e) => setChannel(e.target.value as TAgentChannel)}
          >
            {channels.map((c) => (
              <option key={c} value={c}>
                {AGENT_STRINGS.channels[c]}
              </option>
            ))}
          </NativeSelect>
        </div>
        <div className="grid gap-2">
          <Label htmlFor="agent-preview-size">{P.sampleSize}</Label>
          <NativeSelect
            id="agent-preview-size"
            value={size}
            onChange={(e) => setSize(Number(e.target.value))}
          >
            {SIZES.map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </NativeSelect>
        </div>
        <Button
          type="button"
          disabled={!ready || dirty || preview.isPending}
          onClick={() => channel && preview.mutate({ agentId: agent.id, channel, sample_size: size })}
        >
          {preview.isPending ? P.running : P.run}
        </Button>
        {dirty ? (
          <span className="text-xs text-muted-foreground">{AGENT_STRINGS.editor.saveFirst}</span>
        ) : null}
      </div>
      {preview.isPending ? <SectionLoading /> : null}
      {preview.isError ? (
        <p role="alert" className="text-sm text-destructive">
          {apiErrorMessage(preview.error, P.failed)}
        </p>
      ) : null}
      {preview.data ? (
        <div className="grid gap-4">
          {preview.data.items.length === 0 ? (
            <p className="text-sm text-muted-foreground">{P.empty}</p>
          ) : null}
          <ul aria-label={P.title} className="grid gap-4">
            {preview.data.items.map((item) => {
              const who = customerLabel(item.customer);
              return (
                <li key={item.id} className="grid gap-2 rounded-lg border p-4">
                  <div className="flex flex-wrap items-center gap-2">
                    <span className="font-medium">{P.to(who)}</span>
                    <StatusBadge tone={item.rendered ? 'good' : 'neutral'}>
                      {item.rendered ? P.wouldSend : P.wouldNotSend}
                    </StatusBadge>
                  </div>
                  <p className="text-sm text-muted-foreground">
                    <span className="font-medium">{P.reason}: </span>
                    {item.reason}
                  </p>
                  {item.rendered ? (
                    <RenderedMessage channel={item.channel} rendered={item.rendered} recipient={who} />
                  ) : null}
                </li>
              );
            })}
          </ul>
          <Link
            className="text-sm underline"
            to={agentRunPath(agent.id, preview.data.run.channel, preview.data.run.id)}
          >
            {P.openRun}
          </Link>
        </div>
      ) : null}
    </Section>
  );
}
