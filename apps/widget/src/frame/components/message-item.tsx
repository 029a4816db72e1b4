// One message: text, or a file as a link (with a preview for images); the visitor's own on the right.
import type { TPublicMessage } from '@titan/contracts';
import { formatTime } from '../format';
import { TEXT } from '../text';

type Props = { message: TPublicMessage; staffName: string };

export function MessageItem({ message, staffName }: Props) {
  const own = message.sender_type === 'customer';
  const meta = message.meta_data as { file_name?: unknown; mime_type?: unknown };
  const fileName = typeof meta.file_name === 'string' ? meta.file_name : TEXT.attachment;
  const isImage = typeof meta.mime_type === 'string' && meta.mime_type.startsWith('image/');
  const who = own ? TEXT.you : (message.sender?.name ?? staffName);
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
      <time dateTime={message.created_at}>{formatTime(message.created_at)}</time>
    </li>
  );
}
