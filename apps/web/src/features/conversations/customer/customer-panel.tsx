// The customer beside the conversation (issue 29): who they are, their consent per channel, their
// labels and lists, their other conversations and the latest messages sent them, with a way to the
// directory page that edits them. Each part loads on its own; a part the caller may not read
// (recent sends need engage.read) is left out. Wide screens show it as a column of the pane,
// narrower ones over the conversation, with a close button. Below, the copilot's Ask box.
import type { TDirectoryVisitor } from '@titan/contracts';
import { XIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

import { LabelChips } from '../../../components/labels/label-chips';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { conversationPath, visitorPath } from '../../../config/paths';
import { CopilotAsk } from '../components/copilot-ask';
import { usePermissions } from '../../../lib/business/roles';
import { useVisitor } from '../../../lib/customers/get-customer';
import { useVisitorConversations, useVisitorSends } from '../../../lib/customers/get-customer-activity';
import { useCustomerLists } from '../../../lib/customers/get-customer-lists';
import { formatDateTime } from '../../../lib/format';
import { cn } from '../../../lib/utils';
import { CUSTOMER_PANEL_STRINGS as P } from './strings';

const SHOWN = 5;
const CONSENT_CHANNELS = ['email', 'sms', 'whatsapp'] as const;

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section aria-label={title} className="flex flex-col gap-1.5 border-t px-4 py-3">
      <h3 className="text-xs font-semibold tracking-wide text-muted-foreground uppercase">{title}</h3>
      {children}
    </section>
  );
}

function Loading({
  query,
  children,
}: {
  query: { isPending: boolean; isError: boolean };
  children: ReactNode;
}) {
  if (query.isPending) return <Spinner className="size-4" />;
  if (query.isError) return <p className="text-sm text-muted-foreground">{P.failed}</p>;
  return children;
}

function Profile({ customer }: { customer: TDirectoryVisitor }) {
  const rows: [string, string][] = [
    [P.email, customer.email ?? P.none],
    [P.phone, customer.phone ?? P.none],
    [P.lastSeen, customer.last_seen_at ? formatDateTime(customer.last_seen_at) : P.never],
  ];
  return (
    <dl className="grid grid-cols-[5.5rem_minmax(0,1fr)] gap-x-2 gap-y-1 text-sm">
      {rows.map(([term, value]) => (
        <div key={term} className="contents">
          <dt className="text-muted-foreground">{term}</dt>
          <dd className="[overflow-wrap:anywhere]">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function Consent({ customer }: { customer: TDirectoryVisitor }) {
  return (
    <ul className="flex flex-wrap gap-1">
      {CONSENT_CHANNELS.map((channel) => {
        const status = customer[`${channel}_status`];
        return (
          <li key={channel} data-consent={channel}>
            <Badge
              variant={status === 'subscribed' ? 'default' : status === 'unknown' ? 'secondary' : 'outline'}
              className={cn(
                status !== 'subscribed' && status !== 'unknown' && 'border-destructive/60 text-destructive',
              )}
            >
              {P.consentChannels[channel]}: {P.consentStatuses[status]}
            </Badge>
          </li>
        );
      })}
    </ul>
  );
}

function Lists({ customerId }: { customerId: number }) {
  const lists = useCustomerLists(customerId);
  return (
    <Loading query={lists}>
      {lists.data && lists.data.length > 0 ? (
        <ul className="flex flex-wrap gap-1">
          {lists.data.map((list) => (
            <li key={list.id}>
              <Badge variant="outline">{list.name}</Badge>
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-sm text-muted-foreground">{P.noLists}</p>
      )}
    </Loading>
  );
}

function OtherConversations({ customerId, current }: { customerId: number; current: number }) {
  const conversations = useVisitorConversations(customerId, 1);
  const others = (conversations.data?.results ?? []).filter((c) => c.id !== current).slice(0, SHOWN);
  return (
    <Loading query={conversations}>
      {others.length > 0 ? (
        <ul className="flex flex-col gap-1 text-sm">
          {others.map((c) => (
            <li key={c.id} className="flex min-w-0 items-center gap-2">
              <Link
                to={conversationPath(c.id)}
                className="min-w-0 flex-1 truncate underline-offset-2 hover:underline"
              >
                {c.title}
              </Link>
              <span className="shrink-0 text-xs text-muted-foreground">
                {formatDateTime(c.last_message_at ?? c.created_at)}
              </span>
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-sm text-muted-foreground">{P.noConversations}</p>
      )}
    </Loading>
  );
}

function RecentSends({ customerId }: { customerId: number }) {
  const sends = useVisitorSends(customerId, 1);
  const shown = (sends.data?.results ?? []).slice(0, SHOWN);
  return (
    <Loading query={sends}>
      {shown.length > 0 ? (
        <ul className="flex flex-col gap-1 text-sm">
          {shown.map((send) => (
            <li key={send.tracking_id} className="flex min-w-0 flex-col">
              <span className="truncate">
                <span className="font-medium">{P.sendChannels[send.channel]}</span>
                {' · '}
                {send.subject ?? send.template_name ?? send.to}
              </span>
              <span className="text-xs text-muted-foreground">
                {send.status} · {formatDateTime(send.created_at)}
              </span>
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-sm text-muted-foreground">{P.noSends}</p>
      )}
    </Loading>
  );
}

export function CustomerPanel({
  customerId,
  conversationId,
  onClose,
}: {
  customerId: number | null;
  conversationId: number;
  onClose: () => void;
}) {
  return (
    <aside
      aria-label={P.panel}
      className="absolute inset-y-0 right-0 z-10 flex w-full max-w-sm flex-col overflow-y-auto border-l bg-background shadow-lg xl:static xl:w-80 xl:max-w-none xl:shrink-0 xl:shadow-none"
    >
      <div className="flex items-center gap-2 px-4 py-3">
        <h2 className="flex-1 font-semibold">{P.panel}</h2>
        <Button type="button" variant="ghost" size="icon" aria-label={P.close} onClick={onClose}>
          <XIcon aria-hidden="true" />
        </Button>
      </div>
      {customerId === null ? (
        <p className="px-4 pb-4 text-sm text-muted-foreground">{P.noCustomer}</p>
      ) : (
        <CustomerDetails customerId={customerId} conversationId={conversationId} />
      )}
      <CopilotAsk key={conversationId} conversationId={conversationId} />
    </aside>
  );
}

function CustomerDetails({ customerId, conversationId }: { customerId: number; conversationId: number }) {
  const customer = useVisitor(customerId);
  const { can } = usePermissions();
  return (
    <Loading query={customer}>
      {customer.data ? (
        <>
          <div className="flex flex-col gap-2 px-4 pb-3">
            <p className="font-medium [overflow-wrap:anywhere]">
              {customer.data.name ?? customer.data.email ?? P.none}
            </p>
            <Profile customer={customer.data} />
            <Link
              to={visitorPath(customerId)}
              className="text-sm text-primary underline-offset-2 hover:underline"
            >
              {P.openInDirectory}
            </Link>
          </div>
          <Section title={P.consent}>
            <Consent customer={customer.data} />
          </Section>
          <Section title={P.labels}>
            {customer.data.labels.length > 0 ? (
              <LabelChips labels={customer.data.labels} max={8} />
            ) : (
              <p className="text-sm text-muted-foreground">{P.noLabels}</p>
            )}
          </Section>
          <Section title={P.lists}>
            <Lists customerId={customerId} />
          </Section>
          <Section title={P.conversations}>
            <OtherConversations customerId={customerId} current={conversationId} />
          </Section>
          {can('engage.read') ? (
            <Section title={P.sends}>
              <RecentSends customerId={customerId} />
            </Section>
          ) : null}
        </>
      ) : null}
    </Loading>
  );
}
