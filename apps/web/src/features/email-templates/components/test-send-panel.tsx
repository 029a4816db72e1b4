// Send a test of the saved template to an address, from an address on a verified sending domain,
// with the sample values the preview uses. From starts on a verified domain (the person's own address
// when its domain is verified) and To on their own address; both stay editable. Field errors from the
// server land on their field.
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';

import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { settingsPath } from '../../../config/paths';
import { apiErrorMessage, describeApiFailure } from '../../../lib/api-errors';
import { suggestedFromAddress, useEmailDomains } from '../../../lib/email-domains';
import { useProfile } from '../../../lib/session/profile';
import { useSendTestEmail } from '../api/send-test-email';
import { EMAIL_TEMPLATE_STRINGS as S } from '../strings';

export function TestSendPanel({
  templateId,
  variables,
}: {
  templateId: number | null;
  variables: Record<string, unknown>;
}) {
  const id = useId();
  // null until the person types: the field then shows the suggestion (once the answers arrive).
  const [typedTo, setTo] = useState<string | null>(null);
  const [typedFrom, setFrom] = useState<string | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const send = useSendTestEmail();
  const domains = useEmailDomains();
  const profile = useProfile();
  const ownEmail = profile.data?.email ?? null;
  const suggestedFrom = domains.data ? suggestedFromAddress(domains.data, ownEmail) : null;
  const from = typedFrom ?? suggestedFrom ?? '';
  const to = typedTo ?? ownEmail ?? '';
  const noVerifiedDomain = domains.data !== undefined && suggestedFrom === null;
  const submit = () => {
    if (templateId === null) return;
    setErrors({});
    send.mutate(
      { templateId, to: to.trim(), from: from.trim(), variables },
      {
        onSuccess: (sent) => toast.success(S.testSent(sent.recipient)),
        onError: (error) => {
          const failure = describeApiFailure(error);
          const fields = failure.kind === 'response' ? (failure.fieldErrors ?? {}) : {};
          const shown: Record<string, string> = {};
          for (const key of ['to', 'from', 'variables', 'template_id'])
            if (fields[key]?.[0]) shown[key === 'template_id' ? 'variables' : key] = fields[key][0];
          if (Object.keys(shown).length === 0) shown.form = apiErrorMessage(error);
          setErrors(shown);
        },
      },
    );
  };
  return (
    <section aria-label={S.testTitle} className="grid gap-3 rounded-md border p-3">
      <div>
        <h2 className="text-base font-semibold">{S.testTitle}</h2>
        <p className="text-xs text-muted-foreground">
          {templateId === null ? S.testSaveFirst : S.testDescription}
        </p>
      </div>
      <form
        noValidate
        className="grid gap-2"
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <div className="grid gap-1">
          <Label htmlFor={`${id}-from`}>{S.testFrom}</Label>
          <Input
            id={`${id}-from`}
            value={from}
            placeholder="news@your-domain.com"
            aria-invalid={errors.from ? true : undefined}
            onChange={(e) => setFrom(e.target.value)}
          />
          {errors.from ? <p className="text-sm text-destructive">{errors.from}</p> : null}
          {noVerifiedDomain && !errors.from ? (
            <p className="text-xs text-muted-foreground">
              {S.testNoVerifiedDomain}{' '}
              <Link className="underline underline-offset-2" to={settingsPath('email-domains')}>
                {S.testVerifyDomainLink}
              </Link>
            </p>
          ) : null}
        </div>
        <div className="grid gap-1">
          <Label htmlFor={`${id}-to`}>{S.testTo}</Label>
          <Input
            id={`${id}-to`}
            type="email"
            value={to}
            aria-invalid={errors.to ? true : undefined}
            onChange={(e) => setTo(e.target.value)}
          />
          {errors.to ? <p className="text-sm text-destructive">{errors.to}</p> : null}
        </div>
        {errors.variables ? <p className="text-sm text-destructive">{errors.variables}</p> : null}
        {errors.form ? <p className="text-sm text-destructive">{errors.form}</p> : null}
        <Button
          type="submit"
          variant="outline"
          className="w-fit"
          disabled={templateId === null || send.isPending}
        >
          {send.isPending ? S.testSending : S.testSend}
        </Button>
      </form>
    </section>
  );
}
