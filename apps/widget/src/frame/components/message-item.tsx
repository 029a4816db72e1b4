// One message: text, or a file as a link (with a preview for images); the visitor's own on the right.
import type { TPublicMessage } from '@titan/contracts';
import { formatTime } from '../format';
import { useT } from '../i18n';
import { CsatRating } from './csat-rating';

type Props = { message: TPublicMessage; staffName: string };

export function MessageItem({ message, staffName }: Props) {
  const tr = useT();
  const { t } = tr;
  const own = message.sender_type === 'customer';
  const meta = message.meta_data as { file_name?: unknown; mime_type?: unknown };
  const fileName = typeof meta.file_name === 'string' ? meta.file_name : t('attachment');
  const isImage = typeof meta.mime_type === 'string' && meta.mime_type.startsWith('image/');
  const who = own ? t('you') : (message.sender?.name ?? staffName);
  // The survey of a resolved conversation: the rating in the visitor's language, not the stored text.
  const csat = (message.meta_data as { csat?: { token?: unknown } }).csat;
  if (message.sender_type === 'system' && csat && typeof csat.token === 'string') {
    return (
      <li className="msg">
        <span className="who">{staffName}</span>
        <div className="bubble">
          <CsatRating token={csat.token} />
        </div>
      </li>
    );
  }
  return (
    <li className={own ? 'msg own' : 'msg'}>
      <span className="who">{who}</span>
      <div className="bubble">
        {message.message_type === 'file' ? (
          <a className="file" href={message.content} target="_blank" rel="noopener noreferrer">
            {isImage ? <img src={message.content} alt={fileName} loading="lazy" /> : null}
            <span>{fileName}</span>
          </a>
        ) : (
          message.content
        )}
      </div>
      <time dateTime={message.created_at}>{formatTime(message.created_at, tr)}</time>
    </li>
  );
}
