// The own-channel attachment confirmation (spec section 2): "Send Attachment", "Are you sure you want
// to send the file?", Cancel / Send, and "Sending..." while the file uploads and posts.
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '../../../components/ui/alert-dialog';
import { Button } from '../../../components/ui/button';
import { CONVERSATIONS_STRINGS as S } from '../strings';

export function SendAttachmentDialog({
  file,
  sending,
  onCancel,
  onSend,
}: {
  file: File | null;
  sending: boolean;
  onCancel: () => void;
  onSend: () => void;
}) {
  return (
    <AlertDialog
      open={file !== null}
      onOpenChange={(open) => {
        if (!open && !sending) onCancel();
      }}
    >
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>{S.sendAttachmentTitle}</AlertDialogTitle>
          <AlertDialogDescription>{S.sendAttachmentText}</AlertDialogDescription>
        </AlertDialogHeader>
        {file ? <p className="truncate text-sm font-medium">{file.name}</p> : null}
        <AlertDialogFooter>
          <AlertDialogCancel disabled={sending}>{S.cancel}</AlertDialogCancel>
          {/* Not an AlertDialogAction: the dialog stays open until the file is sent. */}
          <Button disabled={sending} onClick={onSend}>
            {sending ? S.sending : S.send}
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
