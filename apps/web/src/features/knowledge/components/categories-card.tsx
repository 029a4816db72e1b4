// The business's help-centre categories: add one by name, delete one (its articles stay).
import { PlusIcon, Trash2Icon } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { toast } from 'sonner';

import { ConfirmAction } from '../../../components/confirm-action';
import { SectionError, SectionLoading } from '../../../components/load-state';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { describeApiFailure, reportApiError } from '../../../lib/api-errors';
import { useCreateCategory } from '../api/create-category';
import { useDeleteCategory } from '../api/delete-category';
import { useCategories } from '../api/get-categories';
import { KNOWLEDGE_STRINGS } from '../strings';

const S = KNOWLEDGE_STRINGS.categories;

export function CategoriesCard({ canWrite }: { canWrite: boolean }) {
  const id = useId();
  const categories = useCategories();
  const create = useCreateCategory();
  const remove = useDeleteCategory();
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);

  const add = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    create.mutate(
      { name },
      {
        onSuccess: () => {
          setName('');
          toast.success(S.added);
        },
        onError: (failure) => {
          const described = describeApiFailure(failure);
          const field = described.kind === 'response' ? described.fieldErrors?.name?.[0] : undefined;
          if (field) setError(field);
          else reportApiError(failure, { toast: true });
        },
      },
    );
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>{S.title}</CardTitle>
        <CardDescription>{S.description}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {categories.isPending ? <SectionLoading /> : null}
        {categories.isError ? (
          <SectionError
            error={categories.error}
            onRetry={() => void categories.refetch()}
            fallback={S.loadFailed}
          />
        ) : null}
        {categories.data?.length === 0 ? <p className="text-sm text-muted-foreground">{S.none}</p> : null}
        {categories.data?.length ? (
          <ul aria-label={S.title} className="grid gap-2">
            {categories.data.map((category) => (
              <li key={category.id} className="flex items-center gap-2 rounded-md border px-3 py-2">
                <div className="min-w-0 flex-1">
                  <p className="font-medium break-words">{category.name}</p>
                  <p className="text-xs text-muted-foreground">{S.articles(category.article_count)}</p>
                </div>
                {canWrite ? (
                  <ConfirmAction
                    trigger={<Trash2Icon aria-hidden="true" />}
                    triggerLabel={S.deleteLabel(category.name)}
                    title={S.deleteTitle(category.name)}
                    description={S.deleteText}
                    confirmLabel={S.delete}
                    onConfirm={() =>
                      remove.mutate(category.id, {
                        onSuccess: () => toast.success(S.deleted),
                        onError: (failure) => reportApiError(failure, { toast: true }),
                      })
                    }
                  />
                ) : null}
              </li>
            ))}
          </ul>
        ) : null}
        {canWrite ? (
          <form noValidate onSubmit={add} className="grid gap-2">
            <Label htmlFor={`${id}-name`}>{S.name}</Label>
            <div className="flex gap-2">
              <Input
                id={`${id}-name`}
                value={name}
                maxLength={100}
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? `${id}-error` : undefined}
                onChange={(event) => {
                  setName(event.target.value);
                  setError(null);
                }}
              />
              <Button type="submit" variant="outline" disabled={!name.trim() || create.isPending}>
                <PlusIcon aria-hidden="true" />
                {S.add}
              </Button>
            </div>
            {error ? (
              <p id={`${id}-error`} role="alert" className="text-sm text-destructive">
                {error}
              </p>
            ) : null}
          </form>
        ) : null}
      </CardContent>
    </Card>
  );
}
