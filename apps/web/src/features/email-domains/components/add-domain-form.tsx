// Adds a sending domain; the server checks the name (IDN → punycode, duplicates) and says why not.
import { zodResolver } from '@hookform/resolvers/zod';
import { ZCreateEmailDomainRequest, type TCreateEmailDomainRequest } from '@titan/contracts';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import type { z } from 'zod';

import { FormAlert } from '../../../components/form/form-alert';
import { TextField } from '../../../components/form/text-field';
import { Button } from '../../../components/ui/button';
import { applyApiErrorToForm } from '../../../lib/api-errors';
import { useCreateEmailDomain } from '../api/create-email-domain';
import { EMAIL_DOMAINS_STRINGS as S } from '../strings';

const FIELDS = ['domain'] as const;

export function AddDomainForm() {
  const form = useForm<TCreateEmailDomainRequest, unknown, z.output<typeof ZCreateEmailDomainRequest>>({
    resolver: zodResolver(ZCreateEmailDomainRequest),
    defaultValues: { domain: '' },
  });
  const create = useCreateEmailDomain();
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const domain = await create.mutateAsync(values);
      toast.success(S.added(domain.domain));
      form.reset({ domain: '' });
    } catch (error) {
      applyApiErrorToForm(form, FIELDS, error);
    }
  });

  return (
    <form
      noValidate
      aria-label={S.addTitle}
      onSubmit={(event) => void onSubmit(event)}
      className="grid gap-4 sm:grid-cols-[1fr_auto] sm:items-start"
    >
      <div className="sm:col-span-2">
        <FormAlert message={errors.root?.server?.message} />
      </div>
      <TextField
        label={S.domainLabel}
        hint={S.domainHint}
        placeholder={S.domainPlaceholder}
        autoComplete="off"
        spellCheck={false}
        registration={form.register('domain')}
        error={errors.domain?.message}
      />
      <Button type="submit" disabled={isSubmitting} className="sm:mt-[1.375rem]">
        {isSubmitting ? S.adding : S.add}
      </Button>
    </form>
  );
}
