// Writing: Enter sends, Shift+Enter breaks the line; a file is checked, uploaded, then sent.
import { useEffect, useRef, useState, type ChangeEvent, type KeyboardEvent } from 'react';
import { errorText } from '../api';
import { OWN_CHANNEL_FILE_LIMIT_BYTES } from '@titan/contracts/constants';
import { useT } from '../i18n';

type Props = {
  focusKey: number;
  onSendText(text: string): Promise<void>;
  onSendFile(file: File): Promise<void>;
  /** The visitor is typing (called on each change; the socket throttles what it sends). */
  onTyping?(): void;
};

const MAX_HEIGHT = 150;

export function Composer({ focusKey, onSendText, onSendFile, onTyping }: Props) {
  const tr = useT();
  const { t } = tr;
  const [text, setText] = useState('');
  const [busy, setBusy] = useState<'send' | 'upload' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const boxRef = useRef<HTMLTextAreaElement>(null);
  const fileRef = useRef<HTMLInputElement>(null);

  useEffect(() => boxRef.current?.focus(), [focusKey]);

  useEffect(() => {
    const box = boxRef.current;
    if (!box) return;
    box.style.height = 'auto';
    box.style.height = `${Math.min(box.scrollHeight, MAX_HEIGHT)}px`;
  }, [text]);

  const send = async () => {
    const value = text.trim();
    if (!value || busy) return;
    setBusy('send');
    setError(null);
    try {
      await onSendText(value);
      setText('');
    } catch (err) {
      setError(errorText(err, t('send_failed'), tr));
    } finally {
      setBusy(null);
      boxRef.current?.focus();
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void send();
    }
  };

  const onFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file || busy) return;
    if (file.size > OWN_CHANNEL_FILE_LIMIT_BYTES) {
      setError(t('file_too_large'));
      return;
    }
    setBusy('upload');
    setError(null);
    try {
      await onSendFile(file);
    } catch (err) {
      setError(errorText(err, t('upload_failed'), tr));
    } finally {
      setBusy(null);
    }
  };

  return (
    <div className="composer">
      {error ? (
        <p className="error" role="alert">
          {error}
        </p>
      ) : null}
      {busy === 'upload' ? (
        <p className="muted" role="status">
          {t('uploading')}
        </p>
      ) : null}
      <div className="compose-row">
        <button
          type="button"
          className="icon"
          aria-label={t('attach')}
          title={t('attach')}
          disabled={busy !== null}
          onClick={() => fileRef.current?.click()}
        >
          <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
            <path
              d="M21 11.5 12.5 20a5 5 0 0 1-7-7L14 4.5a3.5 3.5 0 0 1 5 5L10.5 18a2 2 0 0 1-3-3L15 7.5"
              fill="none"
              stroke="currentColor"
              strokeWidth="2"
              strokeLinecap="round"
            />
          </svg>
        </button>
        <input
          ref={fileRef}
          className="sr-only"
          type="file"
          tabIndex={-1}
          aria-hidden="true"
          data-testid="attachment-input"
          onChange={onFile}
        />
        <textarea
          ref={boxRef}
          rows={1}
          value={text}
          placeholder={t('placeholder')}
          aria-label={t('message_label')}
          readOnly={busy === 'send'}
          onChange={(e) => {
            setText(e.target.value);
            if (e.target.value.trim()) onTyping?.();
          }}
          onKeyDown={onKeyDown}
        />
        <button type="button" className="send" disabled={busy !== null || !text.trim()} onClick={send}>
          {t('send')}
        </button>
      </div>
    </div>
  );
}
