// The public guide to a sending domain's DNS records: what each is for, what to paste, and how to
// add records at the DNS hosts most businesses use.
import { Link } from 'react-router';

import { settingsPath } from '../../../config/paths';
import { DNS_HELP_STRINGS as S } from '../strings';

export function DnsHelp() {
  return (
    <article className="mx-auto flex w-full max-w-3xl flex-col gap-6 p-4 md:p-8">
      <header className="grid gap-3">
        <h1 className="text-2xl font-semibold tracking-tight break-words">{S.title}</h1>
        <p className="text-muted-foreground">{S.intro}</p>
        <ol className="list-decimal space-y-1 pl-6 text-sm">
          {S.steps.map((step) => (
            <li key={step}>{step}</li>
          ))}
        </ol>
      </header>

      <section aria-labelledby="dns-help-records" className="grid gap-4">
        <h2 id="dns-help-records" className="text-xl font-semibold">
          {S.recordsTitle}
        </h2>
        {S.records.map((record) => (
          <section key={record.purpose} className="grid gap-2 rounded-xl border p-4 text-sm">
            <h3 className="text-base font-semibold">{record.name}</h3>
            <p className="text-muted-foreground">
              <code className="font-mono text-xs break-all">{record.where}</code>
            </p>
            <p>{record.what}</p>
            <p>{record.paste}</p>
          </section>
        ))}
      </section>

      <section aria-labelledby="dns-help-hosts" className="grid gap-4">
        <h2 id="dns-help-hosts" className="text-xl font-semibold">
          {S.hostsTitle}
        </h2>
        <p className="text-sm text-muted-foreground">{S.hostNote}</p>
        {S.hosts.map((host) => (
          <section key={host.name} aria-label={host.name} className="grid gap-2">
            <h3 className="font-semibold">{host.name}</h3>
            <ol className="list-decimal space-y-1 pl-6 text-sm">
              {host.steps.map((step) => (
                <li key={step}>{step}</li>
              ))}
            </ol>
          </section>
        ))}
      </section>

      <section aria-labelledby="dns-help-trouble" className="grid gap-2">
        <h2 id="dns-help-trouble" className="text-xl font-semibold">
          {S.troubleTitle}
        </h2>
        <ul className="list-disc space-y-1 pl-6 text-sm">
          {S.trouble.map((item) => (
            <li key={item}>{item}</li>
          ))}
        </ul>
      </section>

      <p>
        <Link className="text-sm underline underline-offset-4" to={settingsPath('email-domains')}>
          {S.backToSettings}
        </Link>
      </p>
    </article>
  );
}
