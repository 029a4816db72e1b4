// Sends a new verification mail for an address that has not been confirmed yet.
import { Button } from '../../../components/ui/button';
import { reportApiError } from '../../../lib/api-errors';
import { useResendVerification } from '../api/resend-verification';
import { AUTH_STRINGS } from '../strings';

export function ResendVerificationButton({ email }: { email: string }) {
  const resend = useResendVerification();
  if (resend.isSuccess) {
    return (
      <p role="status" className="text-sm">
        {AUTH_STRINGS.verificationResent(email)}
      </p>
    );
  }
  return (
    <Button
      type="button"
      variant="outline"
      size="sm"
      disabled={resend.isPending}
      onClick={() => resend.mutate({ email }, { onError: (error) => reportApiError(error, { toast: true }) })}
    >
      {resend.isPending ? AUTH_STRINGS.resendingVerification : AUTH_STRINGS.resendVerification}
    </Button>
  );
}
