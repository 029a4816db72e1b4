// This month's WhatsApp messages and their estimated cost (Titan's estimate from its per-message
// rates), above the log. A failure to load it says so in place: the log below still works.
import type { TWhatsappBalance } from '@titan/contracts';

import { Spinner } from '../../../components/ui/spinner';
import { apiErrorMessage } from '../../../lib/api-errors';
import { useWhatsappBalance } from '../api/get-whatsapp-balance';
import { WHATSAPP_STRINGS } from '../strings';

const S = WHATSAPP_STRINGS.balance;

function formatMoney(amount: number, currency: string): string {
  try {
    return new Intl.NumberFormat(undefined, { style: 'currency', currency }).format(amount);
  } catch {
    // Not an ISO 4217 code: the number with the code as given.
    return `${amount.toFixed(2)} ${currency}`;
  }
}

/** The period is a calendar month in UTC: its name and year. */
function formatMonth(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? iso
    : new Intl.DateTimeFormat(undefined, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(date);
}

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <div className="grid gap-0.5">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="text-xl font-semibold tabular-nums">{value}</dd>
    </div>
  );
}

function Figures({ balance }: { balance: TWhatsappBalance }) {
  return (
    <dl className="flex flex-wrap gap-x-10 gap-y-3">
      <Figure label={S.messages} value={String(balance.messages_sent)} />
      <Figure label={S.billable} value={String(balance.billable_messages)} />
      <Figure label={S.spend} value={formatMoney(balance.spent, balance.currency)} />
    </dl>
  );
}

export function BalanceSummary() {
  const balance = useWhatsappBalance();
  return (
    <section aria-label={S.title} className="grid gap-3 rounded-lg border p-4">
      <h2 className="text-sm font-medium">
        {S.title}
        {balance.data ? (
          <span className="ml-2 font-normal text-muted-foreground">
            {formatMonth(balance.data.period_start)}
          </span>
        ) : null}
      </h2>
      {balance.isPending ? (
        <Spinner />
      ) : balance.isError ? (
        <p className="text-sm text-muted-foreground">{apiErrorMessage(balance.error, S.loadFailed)}</p>
      ) : (
        <Figures balance={balance.data} />
      )}
    </section>
  );
}
