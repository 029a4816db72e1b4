// Reply to the customer, or write a private note for the team: the composer's two modes.
import { LockIcon, MessageSquareIcon } from 'lucide-react';

import { cn } from '../../../lib/utils';
import { TEAM_INBOX_STRINGS as T } from './strings';

export function ComposerModes({
  mode,
  onChange,
}: {
  mode: 'reply' | 'note';
  onChange: (mode: 'reply' | 'note') => void;
}) {
  const tab = (value: 'reply' | 'note', label: string, Icon: typeof LockIcon) => (
    <button
      type="button"
      role="tab"
      aria-selected={mode === value}
      onClick={() => onChange(value)}
      className={cn(
        'flex items-center gap-1.5 border-b-2 px-3 py-1.5 text-xs font-medium transition-colors',
        mode === value
          ? value === 'note'
            ? 'border-amber-500 text-amber-800 dark:text-amber-300'
            : 'border-primary text-foreground'
          : 'border-transparent text-muted-foreground hover:text-foreground',
      )}
    >
      <Icon aria-hidden="true" className="size-3.5" />
      {label}
    </button>
  );
  return (
    <div role="tablist" aria-label={T.composerMode} data-composer-modes className="flex border-t px-2">
      {tab('reply', T.reply, MessageSquareIcon)}
      {tab('note', T.note, LockIcon)}
    </div>
  );
}
