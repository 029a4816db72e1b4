// The chat's header: back to the conversation list (when there is one to go back to), the title,
// and close (when the chat is embedded in a host page).
import { useT } from '../i18n';

type Props = {
  title: string;
  onBack: (() => void) | null;
  onClose: (() => void) | null;
};

export function ChatHeader({ title, onBack, onClose }: Props) {
  const { t } = useT();
  return (
    <header className="head">
      {onBack ? (
        <button type="button" className="icon" aria-label={t('back')} onClick={onBack}>
          <svg className="flip" viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
            <path d="M15 18l-6-6 6-6" fill="none" stroke="currentColor" strokeWidth="2" />
          </svg>
        </button>
      ) : null}
      <h1>{title || t('loading')}</h1>
      {onClose ? (
        <button type="button" className="icon" aria-label={t('close')} onClick={onClose}>
          <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
            <path d="M6 6l12 12M18 6L6 18" fill="none" stroke="currentColor" strokeWidth="2" />
          </svg>
        </button>
      ) : null}
    </header>
  );
}
