// The outside tools a group's AI first responder may call (e.g. an order lookup): the tools of the
// business's MCP servers and plugin connections, ticked one by one. Only a tool that takes the
// customer (customer_id, customer_email, email, customer_phone or phone) can be allowed: Titan fills
// it with the conversation's customer, so the AI never reads another customer's data; any other
// tool is shown with why it cannot be chosen. A saved tool that is no longer offered stays listed
// until it is unticked.
import { AI_CUSTOMER_ARGUMENTS, type TAiResponderTool, type TExternalToolInfo } from '@titan/contracts';
import { Link } from 'react-router';

import { SectionError, SectionLoading } from '../../../components/load-state';
import { settingsPath } from '../../../config/paths';
import { useMcpServers, useUserPlugins } from '../api/get-outside-tools';
import type { TGroupForm } from '../hooks/use-group-form';
import { CHAT_GROUPS_STRINGS } from '../strings';

const S = CHAT_GROUPS_STRINGS.aiResponder.tools;

type TOption = TAiResponderTool & {
  connection: string;
  description: string;
  /** Why it cannot be ticked (null: it can). */
  blocked: string | null;
};

const keyOf = (t: TAiResponderTool) => `${t.source}:${t.server_id}:${t.name}`;

/** Whether a tool takes the customer, which Titan fills with the conversation's customer. */
function takesCustomer(tool: Pick<TExternalToolInfo, 'input_schema'>): boolean {
  const properties = tool.input_schema.properties;
  if (!properties || typeof properties !== 'object') return false;
  return AI_CUSTOMER_ARGUMENTS.some((a) => a in properties);
}

function optionsOf(
  source: TAiResponderTool['source'],
  connections: { id: number; name: string; status: string; tools: TExternalToolInfo[] }[],
): TOption[] {
  return connections.flatMap((c) =>
    c.tools.map((tool) => ({
      source,
      server_id: c.id,
      name: tool.name,
      connection: c.name,
      description: tool.description,
      blocked: !takesCustomer(tool) ? S.noCustomer : c.status !== 'connected' ? S.notConnected : null,
    })),
  );
}

export function AiResponderTools({ form, disabled }: { form: TGroupForm; disabled: boolean }) {
  const mcp = useMcpServers();
  const plugins = useUserPlugins();
  const chosen = form.watch('ai_responder.tools');
  const error = form.formState.errors.ai_responder?.tools;

  if (mcp.isPending || plugins.isPending) return <SectionLoading />;
  if (mcp.isError || plugins.isError)
    return (
      <SectionError
        error={mcp.error ?? plugins.error}
        onRetry={() => {
          void mcp.refetch();
          void plugins.refetch();
        }}
        fallback={S.loadFailed}
      />
    );

  const offered = [...optionsOf('mcp', mcp.data), ...optionsOf('plugin', plugins.data)];
  const offeredKeys = new Set(offered.map(keyOf));
  // Saved but not offered any more (its connection deleted, or the tool gone from it).
  const gone: TOption[] = chosen
    .filter((t) => !offeredKeys.has(keyOf(t)))
    .map((t) => ({ ...t, connection: S.goneConnection, description: '', blocked: S.gone }));
  const chosenKeys = new Set(chosen.map(keyOf));
  const toggle = (option: TOption, on: boolean) => {
    const next = on
      ? [...chosen, { source: option.source, server_id: option.server_id, name: option.name }]
      : chosen.filter((t) => keyOf(t) !== keyOf(option));
    form.setValue('ai_responder.tools', next, {
      shouldDirty: true,
      shouldValidate: form.formState.isSubmitted,
    });
  };

  return (
    <fieldset className="grid gap-2" disabled={disabled}>
      <legend className="text-sm font-medium">{S.legend}</legend>
      <p className="text-sm text-muted-foreground">{S.hint}</p>
      {offered.length + gone.length === 0 ? (
        <p className="text-sm text-muted-foreground">
          {S.none}{' '}
          <Link to={settingsPath('mcp-servers')} className="underline underline-offset-4">
            {S.connect}
          </Link>
        </p>
      ) : (
        <ul className="grid gap-2" aria-label={S.legend}>
          {[...offered, ...gone].map((option) => {
            const checked = chosenKeys.has(keyOf(option));
            // A blocked tool can still be unticked when it was saved.
            const locked = option.blocked !== null && !checked;
            return (
              <li key={keyOf(option)} className="rounded-md border p-2">
                <label className="flex items-start gap-2 text-sm">
                  <input
                    type="checkbox"
                    className="mt-0.5 size-4 shrink-0"
                    checked={checked}
                    disabled={locked}
                    onChange={(e) => toggle(option, e.target.checked)}
                  />
                  <span className="grid min-w-0 gap-0.5">
                    <span className="font-medium break-words">
                      {option.name}{' '}
                      <span className="font-normal text-muted-foreground">
                        {S.from(option.source === 'mcp' ? S.mcp : S.plugin, option.connection)}
                      </span>
                    </span>
                    {option.description ? (
                      <span className="text-muted-foreground break-words">{option.description}</span>
                    ) : null}
                    {option.blocked ? (
                      <span className="text-xs text-destructive">{option.blocked}</span>
                    ) : null}
                  </span>
                </label>
              </li>
            );
          })}
        </ul>
      )}
      {error?.message ? <p className="text-sm text-destructive">{error.message}</p> : null}
    </fieldset>
  );
}
