// Connecting a plugin from the catalogue: its settings (e.g. the endpoint URL), a name, and its API
// key when it needs one; an OAuth plugin goes on to the provider's authorization page.
import type { TPlugin, TUserPlugin } from '@titan/contracts';
import { useForm, type FieldPath } from 'react-hook-form';

import { FormAlert } from '../../../components/form/form-alert';
import { TextField } from '../../../components/form/text-field';
import { Button } from '../../../components/ui/button';
import { applyApiErrorToForm } from '../../../lib/api-errors';
import { useCreateUserPlugin } from '../api/create-user-plugin';
import { OUTSIDE_TOOLS_STRINGS as S } from '../strings';

type TForm = { name: string; api_key: string; settings: Record<string, string> };

export function ConnectPluginForm({
  plugin,
  onConnected,
  onCancel,
}: {
  plugin: TPlugin;
  onConnected: (connection: TUserPlugin) => void;
  onCancel: () => void;
}) {
  const form = useForm<TForm>({
    defaultValues: {
      name: plugin.name,
      api_key: '',
      settings: Object.fromEntries(plugin.settings.map((s) => [s.name, ''])),
    },
  });
  const create = useCreateUserPlugin();
  const fields: FieldPath<TForm>[] = [
    'name',
    'api_key',
    ...plugin.settings.map((s) => `settings.${s.name}` as const),
  ];
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const connection = await create.mutateAsync({
        plugin: plugin.id,
        name: values.name.trim() || undefined,
        settings: values.settings,
        ...(values.api_key.trim() ? { api_key: values.api_key.trim() } : {}),
      });
      onConnected(connection);
    } catch (error) {
      applyApiErrorToForm(form, fields, error);
    }
  });

  return (
    <form
      noValidate
      aria-label={S.plugins.connectTitle(plugin.name)}
      onSubmit={(e) => void onSubmit(e)}
      className="grid max-w-xl gap-4"
    >
      <FormAlert message={errors.root?.server?.message} />
      <TextField
        label={S.plugins.name}
        autoComplete="off"
        registration={form.register('name')}
        error={errors.name?.message}
      />
      {plugin.settings.map((s) => (
        <TextField
          key={s.name}
          label={s.label}
          type={s.type === 'url' ? 'url' : 'text'}
          autoComplete="off"
          registration={form.register(`settings.${s.name}`)}
          error={errors.settings?.[s.name]?.message}
        />
      ))}
      {plugin.api_key_required ? (
        <TextField
          label={S.plugins.apiKey}
          type="password"
          autoComplete="off"
          registration={form.register('api_key')}
          error={errors.api_key?.message}
        />
      ) : null}
      <div className="flex gap-2">
        <Button type="submit" disabled={isSubmitting}>
          {S.plugins.connectAction}
        </Button>
        <Button type="button" variant="outline" onClick={onCancel}>
          {S.plugins.cancel}
        </Button>
      </div>
    </form>
  );
}
