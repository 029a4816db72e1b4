// Settings → Labels: the business's labels (name, colour). Everyone in the inbox sees them; owners
// and admins (engage.write) add, edit and delete them. A deleted label leaves every conversation
// and customer that had it.
import { zodResolver } from '@hookform/resolvers/zod';
import { LABEL_COLORS, ZLabelRequest, type TLabel } from '@titan/contracts';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { toast } from 'sonner';
import type { z } from 'zod';

import { ConfirmAction } from '../../../components/confirm-action';
import { FormAlert } from '../../../components/form/form-alert';
import { TextField } from '../../../components/form/text-field';
import { LabelChip } from '../../../components/labels/label-chips';
import { SectionError, SectionLoading } from '../../../components/load-state';
import { Button } from '../../../components/ui/button';
import {
  Card,
  CardAction,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from '../../../components/ui/card';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '../../../components/ui/dialog';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../../components/ui/table';
import { applyApiErrorToForm, reportApiError } from '../../../lib/api-errors';
import { usePermissions } from '../../../lib/business/roles';
import { useLabels } from '../../../lib/labels';
import { cn } from '../../../lib/utils';
import { useCreateLabel } from '../api/create-label';
import { useDeleteLabel } from '../api/delete-label';
import { useUpdateLabel } from '../api/update-label';
import { LABELS_TAB_STRINGS as STRINGS } from '../labels-strings';

type TLabelForm = z.input<typeof ZLabelRequest>;
const FIELDS = ['name', 'color'] as const;

function LabelForm({ label, onDone }: { label?: TLabel; onDone: () => void }) {
  const form = useForm<TLabelForm, unknown, z.output<typeof ZLabelRequest>>({
    resolver: zodResolver(ZLabelRequest),
    defaultValues: { name: label?.name ?? '', color: label?.color ?? LABEL_COLORS[5] },
  });
  const create = useCreateLabel();
  const update = useUpdateLabel();
  const { errors, isSubmitting } = form.formState;
  const color = useWatch({ control: form.control, name: 'color' });

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      if (label) {
        await update.mutateAsync({ id: label.id, ...values });
        toast.success(STRINGS.saved(values.name));
      } else {
        await create.mutateAsync(values);
        toast.success(STRINGS.created(values.name));
      }
      onDone();
    } catch (error) {
      applyApiErrorToForm(form, FIELDS, error);
    }
  });

  return (
    <form noValidate onSubmit={(event) => void onSubmit(event)} className="grid gap-4">
      <DialogHeader>
        <DialogTitle>{label ? STRINGS.editTitle(label.name) : STRINGS.createTitle}</DialogTitle>
        <DialogDescription>{STRINGS.description}</DialogDescription>
      </DialogHeader>
      <FormAlert message={errors.root?.server?.message} />
      <TextField
        label={STRINGS.name}
        autoComplete="off"
        maxLength={60}
        registration={form.register('name')}
        error={errors.name?.message}
      />
      <fieldset className="grid gap-2">
        <legend className="mb-2 text-sm font-medium">{STRINGS.color}</legend>
        <div className="flex flex-wrap items-center gap-2">
          {LABEL_COLORS.map((swatch) => (
            <button
              key={swatch}
              type="button"
              aria-label={STRINGS.swatch(swatch)}
              aria-pressed={color.toLowerCase() === swatch}
              onClick={() => form.setValue('color', swatch, { shouldDirty: true, shouldValidate: true })}
              className={cn(
                'size-7 rounded-full border-2 border-transparent outline-offset-2',
                color.toLowerCase() === swatch && 'border-foreground',
              )}
              style={{ backgroundColor: swatch }}
            />
          ))}
          <input
            type="color"
            aria-label={STRINGS.customColor}
            value={/^#[0-9a-f]{6}$/i.test(color) ? color : '#000000'}
            onChange={(event) =>
              form.setValue('color', event.target.value, { shouldDirty: true, shouldValidate: true })
            }
            className="h-7 w-10 cursor-pointer rounded border bg-transparent"
          />
        </div>
        <p className="text-xs text-muted-foreground">{STRINGS.colorHint}</p>
        {errors.color?.message ? (
          <p role="alert" className="text-sm text-destructive">
            {errors.color.message}
          </p>
        ) : null}
      </fieldset>
      <DialogFooter>
        <Button type="submit" disabled={isSubmitting}>
          {isSubmitting ? STRINGS.saving : STRINGS.save}
        </Button>
      </DialogFooter>
    </form>
  );
}

function LabelDialog({ label }: { label?: TLabel }) {
  const [open, setOpen] = useState(false);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        {label ? (
          <Button variant="ghost" size="sm" aria-label={STRINGS.editLabel(label.name)}>
            {STRINGS.edit}
          </Button>
        ) : (
          <Button>{STRINGS.create}</Button>
        )}
      </DialogTrigger>
      <DialogContent>{open ? <LabelForm label={label} onDone={() => setOpen(false)} /> : null}</DialogContent>
    </Dialog>
  );
}

function LabelRow({ label, manage }: { label: TLabel; manage: boolean }) {
  const remove = useDeleteLabel();
  return (
    <TableRow>
      <TableCell>
        <LabelChip label={label} className="max-w-56" />
      </TableCell>
      <TableCell>
        <code className="font-mono text-xs">{label.color}</code>
      </TableCell>
      {manage ? (
        <TableCell className="text-right whitespace-nowrap">
          <LabelDialog label={label} />
          <ConfirmAction
            trigger={STRINGS.remove}
            triggerLabel={STRINGS.removeLabel(label.name)}
            title={STRINGS.removeTitle(label.name)}
            description={STRINGS.removeText}
            confirmLabel={STRINGS.remove}
            disabled={remove.isPending}
            onConfirm={() =>
              remove.mutate(label.id, {
                onSuccess: () => toast.success(STRINGS.removed(label.name)),
                onError: (error) => reportApiError(error, { toast: true }),
              })
            }
          />
        </TableCell>
      ) : null}
    </TableRow>
  );
}

export function LabelsTab() {
  const { can, ready } = usePermissions();
  const manage = ready && can('engage.write');
  const labels = useLabels();
  return (
    <Card>
      <CardHeader>
        <CardTitle>{STRINGS.title}</CardTitle>
        <CardDescription>{STRINGS.description}</CardDescription>
        {manage ? (
          <CardAction>
            <LabelDialog />
          </CardAction>
        ) : null}
      </CardHeader>
      <CardContent className="grid gap-4">
        {ready && !manage ? <p className="text-sm text-muted-foreground">{STRINGS.readOnly}</p> : null}
        {labels.isPending ? (
          <SectionLoading />
        ) : labels.isError ? (
          <SectionError error={labels.error} onRetry={() => void labels.refetch()} />
        ) : labels.data.length === 0 ? (
          <p className="text-sm text-muted-foreground">{STRINGS.empty}</p>
        ) : (
          <Table aria-label={STRINGS.title}>
            <TableHeader>
              <TableRow>
                <TableHead>{STRINGS.label}</TableHead>
                <TableHead>{STRINGS.color}</TableHead>
                {manage ? <TableHead className="text-right">{STRINGS.actions}</TableHead> : null}
              </TableRow>
            </TableHeader>
            <TableBody>
              {labels.data.map((label) => (
                <LabelRow key={label.id} label={label} manage={manage} />
              ))}
            </TableBody>
          </Table>
        )}
      </CardContent>
    </Card>
  );
}
