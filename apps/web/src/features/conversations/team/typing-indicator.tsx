// "<name> is typing…" under the open conversation's messages (next-api.md "Team inbox"): the customer
// and other staff, as their typing signals arrive. A polite live region, so a screen reader says it
// without interrupting.
import { useTypers } from '../hooks/use-typing';
import { TEAM_INBOX_STRINGS as T } from './strings';

export function TypingIndicator({ conversationId }: { conversationId: number }) {
  const typers = useTypers(conversationId);
  const names = typers.map((who) => who.name || (who.type === 'customer' ? T.visitor : T.someone));
  return (
    <p
      aria-live="polite"
      data-testid="typing-indicator"
      className="min-h-5 truncate px-4 text-xs text-muted-foreground italic"
    >
      {names.length > 0 ? T.typing(names) : null}
    </p>
  );
}
