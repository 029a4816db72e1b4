// Adding an MCP server: name, URL and authorization (a bearer token, or OAuth — then straight on to
// the server's authorization page); field errors in the server's words.
import { zodResolver } from '@hookform/resolvers/zod';
import type { TMcpServer } from '@titan/contracts';
import { useForm, useWatch } from 'react-hook-form';
import { toast } from 'sonner';
import { z } from 'zod';

import { FormAlert } from '../../../components/form/form-alert';
import { SelectField } from '../../../components/form/select-field';
import { TextField } from '../../../components/form/text-field';
import { Button } from '../../../components/ui/button';
import { applyApiErrorToForm } from '../../../lib/api-errors';
import { useCreateMcpServer } from '../api/create-mcp-server';
import { OUTSIDE_TOOLS_STRINGS as S } from '../strings';

const FIELDS = ['name', 'url', 'auth', 'token', 'oauth_client'] as const;

const ZForm = z
  .object({
    name: z.string().trim().min(1, { message: 'Enter a name.' }),
    url: z.string().trim().min(1, { message: 'Enter the server URL.' }),
    auth: z.enum(['oauth', 'bearer', 'none']),
    token: z.string(),
    oauth_client: z.string(),
  })
  .refine((v) => v.auth !== 'bearer' || v.token.trim() !== '', {
    message: 'Enter the bearer token this server expects.',
    path: ['token'],
  });
type TForm = z.infer<typeof ZForm>;

export function AddMcpServerForm({ onAdded }: { onAdded: (server: TMcpServer) => void }) {
  const form = useForm<TForm>({
    resolver: zodResolver(ZForm),
    defaultValues: { name: '', url: '', auth: 'oauth', token: '', oauth_client: '' },
  });
  const create = useCreateMcpServer();
  const auth = useWatch({ control: form.control, name: 'auth' });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const server = await create.mutateAsync({
        name: values.name,
        url: values.url,
        auth: values.auth,
        ...(values.auth === 'bearer' ? { token: values.token.trim() } : {}),
        ...(values.auth === 'oauth' && values.oauth_client.trim()
          ? { oauth_client: values.oauth_client.trim() }
          : {}),
      });
      toast.success(S.mcp.added(server.name));
      form.reset();
      onAdded(server);
    } catch (error) {
      applyApiErrorToForm(form, FIELDS, error);
    }
  });

  return (
    <form
      noValidate
      aria-label={S.mcp.addTitle}
      onSubmit={(e) => void onSubmit(e)}
      className="grid max-w-xl gap-4"
    >
      <FormAlert message={errors.root?.server?.message} />
      <TextField
        label={S.mcp.name}
        autoComplete="off"
        registration={form.register('name')}
        error={errors.name?.message}
      />
      <TextField
        label={S.mcp.url}
        type="url"
        autoComplete="off"
        placeholder="https://mcp.example.com/mcp"
        hint={S.mcp.urlHint}
        registration={form.register('url')}
        error={errors.url?.message}
      />
      <SelectField
        label={S.mcp.auth}
        options={S.mcp.authOptions}
        registration={form.register('auth')}
        error={errors.auth?.message}
      />
      {auth === 'bearer' ? (
        <TextField
          label={S.mcp.token}
          type="password"
          autoComplete="off"
          registration={form.register('token')}
          error={errors.token?.message}
        />
      ) : null}
      {auth === 'oauth' ? (
        <TextField
          label={S.mcp.oauthClient}
          autoComplete="off"
          hint={S.mcp.oauthClientHint}
          registration={form.register('oauth_client')}
          error={errors.oauth_client?.message}
        />
      ) : null}
      <div>
        <Button type="submit" disabled={isSubmitting}>
          {isSubmitting ? S.mcp.adding : S.mcp.add}
        </Button>
      </div>
    </form>
  );
}
