// "New conversation" (issues 29, 30): staff who may send (engage.send) pick a customer — or type an
// address or number — and start a conversation: a WhatsApp template to their number (the 24-hour
// window is closed until they answer, so a template is the only first message), an email (subject,
// rich text) or an SMS. The send opens the conversation (or continues the customer's WhatsApp
// thread) and the inbox shows it.
// Opened from the list's header, or with ?new_conversation=<customer id> (the customer's page).
import type { TDirectoryVisitor, TMessage } from '@titan/contracts';
import { SquarePenIcon } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { toast } from 'sonner';

import { Button } from '../../../components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '../../../components/ui/dialog';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { Spinner } from '../../../components/ui/spinner';
import { IconTooltip } from '../../../components/ui/tooltip';
import { conversationPath } from '../../../config/paths';
import { usePermissions } from '../../../lib/business/roles';
import { useFindCustomers } from '../../../lib/customers/find-customers';
import { useVisitor } from '../../../lib/customers/get-customer';
import { WhatsAppTemplateSender } from '../components/whatsapp-template-picker';
import { EmailStarter, SmsStarter } from './channel-starter';
import { NEW_CONVERSATION_STRINGS as N } from './strings';

const PARAM = 'new_conversation';

const customerName = (c: TDirectoryVisitor) => c.name?.trim() || c.email || c.phone || `#${c.id}`;

/** Why a channel cannot start a conversation with this customer, or null when it can. */
function whatsappProblem(c: Pick<TDirectoryVisitor, 'phone' | 'whatsapp_status'>): string | null {
  if (!c.phone) return N.noPhone;
  if (c.whatsapp_status !== 'subscribed') return N.noConsent;
  return null;
}

function useDebounced(value: string, ms = 250) {
  const [shown, setShown] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setShown(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return shown;
}

const EMAIL_LIKE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE_LIKE = /^\+?[\d\s().-]{6,}$/;

/** An address or number typed in: written to by email or SMS (the customer found or created). */
export type TTypedRecipient = { channel: 'email' | 'sms'; to: string };

function CustomerSearch({
  onPick,
  onAddress,
}: {
  onPick: (customer: TDirectoryVisitor) => void;
  onAddress: (recipient: TTypedRecipient) => void;
}) {
  const id = useId();
  const [text, setText] = useState('');
  const search = useDebounced(text.trim());
  const found = useFindCustomers(search);
  const typed = text.trim();
  const typedChannel = EMAIL_LIKE.test(typed) ? 'email' : PHONE_LIKE.test(typed) ? 'sms' : null;
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>{N.search}</Label>
      <Input
        id={id}
        type="search"
        value={text}
        placeholder={N.searchPlaceholder}
        onChange={(event) => setText(event.target.value)}
        autoComplete="off"
      />
      {found.isPending ? (
        <Spinner />
      ) : (found.data ?? []).length === 0 ? (
        <p className="text-sm text-muted-foreground">{N.noMatches}</p>
      ) : (
        <ul aria-label={N.matches} className="grid max-h-64 gap-1 overflow-y-auto">
          {found.data!.map((c) => (
            <li key={c.id}>
              {/* Named by what it shows (the name, then the address and number), "Choose" first
                  for a screen reader: a spoken label matching the visible words (WCAG 2.5.3). */}
              <button
                type="button"
                onClick={() => onPick(c)}
                className="flex w-full min-w-0 flex-col rounded-md px-2 py-1.5 text-left text-sm hover:bg-accent focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none"
              >
                <span className="truncate font-medium">
                  <span className="sr-only">{N.choosePrefix}</span> {customerName(c)}
                </span>{' '}
                <span className="truncate text-xs text-muted-foreground">
                  {[c.email, c.phone].filter(Boolean).join(' · ')}
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
      {typedChannel ? (
        <div className="flex min-w-0 flex-wrap items-center gap-2 text-sm">
          <span className="text-muted-foreground">{N.writeTo}</span>
          <Button
            type="button"
            variant="outline"
            size="sm"
            className="max-w-full min-w-0"
            onClick={() => onAddress({ channel: typedChannel, to: typed })}
          >
            <span className="truncate">{typedChannel === 'email' ? N.emailTo(typed) : N.textTo(typed)}</span>
          </Button>
        </div>
      ) : null}
    </div>
  );
}

type TStartChannel = 'whatsapp' | 'email' | 'sms';

function ChannelChoice({ value, onChange }: { value: TStartChannel; onChange: (c: TStartChannel) => void }) {
  return (
    <div role="radiogroup" aria-label={N.channel} className="flex flex-wrap gap-2">
      {(['whatsapp', 'email', 'sms'] as const).map((c) => (
        <Button
          key={c}
          type="button"
          role="radio"
          aria-checked={value === c}
          variant={value === c ? 'default' : 'outline'}
          size="sm"
          onClick={() => onChange(c)}
        >
          {N.channels[c]}
        </Button>
      ))}
    </div>
  );
}

function StartFor({
  customer,
  onStarted,
}: {
  customer: TDirectoryVisitor;
  onStarted: (m: TMessage) => void;
}) {
  const [channel, setChannel] = useState<TStartChannel>('whatsapp');
  const problem =
    channel === 'whatsapp'
      ? whatsappProblem(customer)
      : channel === 'email'
        ? customer.email
          ? null
          : N.noEmail
        : customer.phone
          ? null
          : N.noPhone;
  const target = { customerId: customer.id };
  return (
    <section aria-label={N.channel} className="grid gap-3">
      <ChannelChoice value={channel} onChange={setChannel} />
      {/* The chosen button above shows the channel; the heading is for screen readers' navigation. */}
      <h3 className="sr-only">{N.channels[channel]}</h3>
      {problem ? (
        <p role="status" className="text-sm text-muted-foreground">
          {problem} {channel === 'whatsapp' ? N.noChannel : null}
        </p>
      ) : channel === 'whatsapp' ? (
        <WhatsAppTemplateSender target={{ to: customer.phone! }} onSent={onStarted} />
      ) : channel === 'email' ? (
        <EmailStarter key={`email-${customer.id}`} target={target} onStarted={onStarted} />
      ) : (
        <SmsStarter key={`sms-${customer.id}`} target={target} onStarted={onStarted} />
      )}
    </section>
  );
}

function StartTo({ recipient, onStarted }: { recipient: TTypedRecipient; onStarted: (m: TMessage) => void }) {
  const target = { to: recipient.to };
  return (
    <section aria-label={N.channels[recipient.channel]} className="grid gap-3">
      <h3 className="text-sm font-medium">{N.channels[recipient.channel]}</h3>
      {recipient.channel === 'email' ? (
        <EmailStarter target={target} onStarted={onStarted} />
      ) : (
        <SmsStarter target={target} onStarted={onStarted} />
      )}
    </section>
  );
}

function PresetCustomer({
  id,
  onLoaded,
  onAddress,
}: {
  id: number;
  onLoaded: (c: TDirectoryVisitor) => void;
  onAddress: (recipient: TTypedRecipient) => void;
}) {
  const customer = useVisitor(id);
  useEffect(() => {
    if (customer.data) onLoaded(customer.data);
  }, [customer.data, onLoaded]);
  return customer.isError ? <CustomerSearch onPick={onLoaded} onAddress={onAddress} /> : <Spinner />;
}

/**
 * The chosen customer or typed address above the form, with its "Change" button: side by side when
 * there is room; on a phone the button wraps under the address rather than cutting it short.
 */
const RECIPIENT_ROW = 'flex min-w-0 flex-wrap items-center gap-2 rounded-md border px-3 py-2';

export function NewConversationDialog({
  open,
  onOpenChange,
  presetCustomerId = null,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  presetCustomerId?: number | null;
}) {
  const navigate = useNavigate();
  const [customer, setCustomer] = useState<TDirectoryVisitor | null>(null);
  const [typed, setTyped] = useState<TTypedRecipient | null>(null);
  // The preset customer is taken once; "Change customer" then searches.
  const [presetDone, setPresetDone] = useState(false);
  const close = (next: boolean) => {
    if (!next) {
      setCustomer(null);
      setTyped(null);
      setPresetDone(false);
    }
    onOpenChange(next);
  };
  const started = (message: TMessage) => {
    toast.success(N.started);
    close(false);
    void navigate(conversationPath(message.conversation_id));
  };
  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent className="max-h-[90dvh] overflow-y-auto sm:max-w-lg">
        <DialogHeader>
          <DialogTitle>{N.title}</DialogTitle>
          <DialogDescription>{N.description}</DialogDescription>
        </DialogHeader>
        {typed ? (
          <div className="grid gap-4">
            <div className={RECIPIENT_ROW}>
              <p className="min-w-0 flex-1 basis-48 truncate">
                <span className="text-muted-foreground">{N.to} </span>
                <span className="font-medium">{typed.to}</span>
              </p>
              <Button
                type="button"
                variant="outline"
                size="sm"
                className="ml-auto"
                onClick={() => setTyped(null)}
              >
                {N.change}
              </Button>
            </div>
            <StartTo recipient={typed} onStarted={started} />
          </div>
        ) : customer ? (
          <div className="grid gap-4">
            <div className={RECIPIENT_ROW}>
              <div className="min-w-0 flex-1 basis-48">
                <p className="truncate font-medium">{customerName(customer)}</p>
                <p className="truncate text-xs text-muted-foreground">
                  {[customer.email, customer.phone].filter(Boolean).join(' · ')}
                </p>
              </div>
              <Button
                type="button"
                variant="outline"
                size="sm"
                className="ml-auto"
                onClick={() => {
                  setPresetDone(true);
                  setCustomer(null);
                }}
              >
                {N.change}
              </Button>
            </div>
            <StartFor key={customer.id} customer={customer} onStarted={started} />
          </div>
        ) : presetCustomerId !== null && !presetDone ? (
          <PresetCustomer id={presetCustomerId} onLoaded={setCustomer} onAddress={setTyped} />
        ) : (
          <CustomerSearch onPick={setCustomer} onAddress={setTyped} />
        )}
      </DialogContent>
    </Dialog>
  );
}

/** The list header's button, and the dialog it opens (also from ?new_conversation=<id>). */
export function NewConversationButton() {
  const { can } = usePermissions();
  const [searchParams, setSearchParams] = useSearchParams();
  const raw = searchParams.get(PARAM);
  const preset = raw && /^\d{1,15}$/.test(raw) ? Number(raw) : null;
  const [open, setOpen] = useState(false);
  if (!can('engage.send')) return null;
  const onOpenChange = (next: boolean) => {
    setOpen(next);
    if (!next && raw !== null)
      setSearchParams(
        (params) => {
          params.delete(PARAM);
          return params;
        },
        { replace: true },
      );
  };
  return (
    <>
      <IconTooltip label={N.open}>
        <Button
          variant="ghost"
          size="icon"
          className="size-8"
          aria-label={N.open}
          onClick={() => setOpen(true)}
        >
          <SquarePenIcon aria-hidden="true" />
        </Button>
      </IconTooltip>
      <NewConversationDialog
        open={open || preset !== null}
        onOpenChange={onOpenChange}
        presetCustomerId={open ? null : preset}
      />
    </>
  );
}
