// How a site signs a user id for identity verification: on its server, then in the page.
import { EMBED_STRINGS } from '../strings';
import { IDENTITY_HOST_SNIPPET, IDENTITY_SERVER_SNIPPET } from '../utils/snippet';
import { CodeBlock } from './code-block';

const S = EMBED_STRINGS.identity;

export function IdentitySnippets() {
  return (
    <div className="grid gap-3">
      <h3 className="text-sm font-medium">{S.exampleTitle}</h3>
      <p className="text-xs text-muted-foreground">{S.serverExample}</p>
      <CodeBlock code={IDENTITY_SERVER_SNIPPET} label={S.serverExampleLabel} />
      <p className="text-xs text-muted-foreground">{S.hostExample}</p>
      <CodeBlock code={IDENTITY_HOST_SNIPPET} label={S.hostExampleLabel} />
    </div>
  );
}
