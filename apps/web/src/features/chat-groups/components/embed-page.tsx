// The frame of both embed settings screens: heading, a way back to the chat groups, and the rule
// that only roles with team.manage manage embedding (the API refuses the others).
import { ArrowLeftIcon, LockIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

import { EmptyState } from '../../../components/empty-state';
import { SectionLoading } from '../../../components/load-state';
import { settingsPath } from '../../../config/paths';
import { usePermissions } from '../../../lib/business/roles';
import { EMBED_STRINGS } from '../strings';
import { PageLayout } from '../../../components/layout/page-layout';

export function EmbedPage({
  title,
  description,
  links,
  children,
}: {
  title: string;
  description?: string;
  links?: ReactNode;
  children: ReactNode;
}) {
  const { can, ready } = usePermissions();
  return (
    <PageLayout>
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2 text-sm">
        <Link
          to={settingsPath('chat-groups')}
          className="flex items-center gap-1 text-muted-foreground hover:text-foreground"
        >
          <ArrowLeftIcon aria-hidden="true" className="size-4" />
          {EMBED_STRINGS.backToGroups}
        </Link>
        {links}
      </div>
      <div className="grid gap-1">
        <h1 className="text-2xl font-semibold tracking-tight break-words">{title}</h1>
        {description ? <p className="text-sm text-muted-foreground">{description}</p> : null}
      </div>
      {!ready ? (
        <SectionLoading />
      ) : can('team.manage') ? (
        children
      ) : (
        <EmptyState icon={LockIcon} title={EMBED_STRINGS.businessTitle} text={EMBED_STRINGS.notAllowed} />
      )}
    </PageLayout>
  );
}
