// An area of the product that is not built yet: its name and an honest "coming soon", no fake data.
import { ConstructionIcon } from 'lucide-react';

import { EmptyState } from '../../components/empty-state';
import { SHELL_STRINGS, type TArea } from '../strings';

export function ComingSoonRoute({ area }: { area: TArea }) {
  return (
    <section className="mx-auto flex w-full max-w-5xl flex-col gap-6 p-4 md:p-6">
      <h1 className="text-2xl font-semibold tracking-tight">{SHELL_STRINGS.areas[area]}</h1>
      <EmptyState
        icon={ConstructionIcon}
        title={SHELL_STRINGS.comingSoonTitle}
        text={SHELL_STRINGS.comingSoonText}
      />
    </section>
  );
}
