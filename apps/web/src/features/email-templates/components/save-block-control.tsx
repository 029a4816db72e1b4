// "Save as block" beside the visual editor: the section around the selected element is saved under
// a name for every template of the business (it then shows in the Blocks panel, under Saved
// blocks). Field errors from the server show under the name.
import type { TFieldErrors } from '@titan/contracts';
import { BookmarkPlusIcon } from 'lucide-react';
import { useState, type RefObject } from 'react';
import { toast } from 'sonner';

import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { Spinner } from '../../../components/ui/spinner';
import { describeApiFailure, reportApiError } from '../../../lib/api-errors';
import { useCreateEmailBlock } from '../api/create-email-block';
import { EMAIL_TEMPLATE_STRINGS } from '../strings';
import type { TVisualEditorHandle } from './visual-editor-types';

const S = EMAIL_TEMPLATE_STRINGS.brand;

export function SaveBlockControl({ editor }: { editor: RefObject<TVisualEditorHandle | null> }) {
  const [content, setContent] = useState<string | null>(null);
  const [name, setName] = useState('');
  const [errors, setErrors] = useState<TFieldErrors>({});
  const [notice, setNotice] = useState<string | null>(null);
  const create = useCreateEmailBlock();

  const start = () => {
    const section = editor.current?.selectedSection() ?? null;
    setNotice(section ? null : S.nothingSelected);
    setContent(section);
    setErrors({});
  };
  const close = () => {
    setContent(null);
    setName('');
    setErrors({});
  };
  const save = () => {
    if (content === null) return;
    create.mutate(
      { name, content },
      {
        onSuccess: (block) => {
          toast.success(S.blockSaved(block.name));
          close();
        },
        onError: (error) => {
          const failure = describeApiFailure(error);
          if (failure.kind === 'response' && failure.status === 400 && failure.fieldErrors) {
            setErrors(failure.fieldErrors);
            return;
          }
          reportApiError(error, { toast: true });
        },
      },
    );
  };

  if (content === null) {
    return (
      <div className="flex flex-wrap items-center gap-2">
        <Button type="button" variant="outline" size="sm" onClick={start}>
          <BookmarkPlusIcon aria-hidden="true" />
          {S.saveBlock}
        </Button>
        {notice ? (
          <p role="status" className="text-xs text-muted-foreground">
            {notice}
          </p>
        ) : null}
      </div>
    );
  }
  const messages = [...(errors.name ?? []), ...(errors.content ?? []), ...(errors.non_field_errors ?? [])];
  return (
    <div role="group" aria-label={S.saveBlock} className="grid gap-2 rounded-md border p-3">
      <Label htmlFor="email-block-name">{S.blockName}</Label>
      <div className="flex flex-wrap items-center gap-2">
        <Input
          id="email-block-name"
          className="min-w-0 flex-1 basis-48"
          value={name}
          autoFocus
          aria-invalid={messages.length ? true : undefined}
          aria-describedby="email-block-name-error"
          onChange={(e) => setName(e.target.value)}
          onKeyDown={(e) => {
            // Inside the template's form: Enter saves the block, not the template.
            if (e.key === 'Enter') {
              e.preventDefault();
              save();
            }
          }}
        />
        <Button type="button" size="sm" disabled={create.isPending} onClick={save}>
          {create.isPending ? <Spinner /> : null}
          {S.saveBlockConfirm}
        </Button>
        <Button type="button" variant="ghost" size="sm" onClick={close}>
          {S.cancel}
        </Button>
      </div>
      {messages.length ? (
        <p id="email-block-name-error" className="text-sm text-destructive">
          {messages.join(' ')}
        </p>
      ) : null}
    </div>
  );
}
