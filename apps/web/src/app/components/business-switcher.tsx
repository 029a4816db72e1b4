// The current business, and a menu to switch when the user belongs to several. Switching sets the
// business_code cookie, clears the query cache and reloads the route data for the new business.
import { useQueryClient } from '@tanstack/react-query';
import type { TMembershipSummary } from '@titan/contracts';
import { ChevronsUpDownIcon } from 'lucide-react';
import { useNavigate, useRevalidator } from 'react-router';

import { Button } from '../../components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuLabel,
  DropdownMenuRadioGroup,
  DropdownMenuRadioItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '../../components/ui/dropdown-menu';
import { DASHBOARD_PATH } from '../../config/paths';
import { saveBusinessCode } from '../../lib/session/tokens';
import { SHELL_STRINGS } from '../strings';

export function BusinessSwitcher({
  businesses,
  current,
}: {
  businesses: readonly TMembershipSummary[];
  current: TMembershipSummary;
}) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const revalidator = useRevalidator();

  if (businesses.length < 2) {
    return <span className="min-w-0 truncate text-sm font-medium">{current.name}</span>;
  }
  const switchTo = (code: string) => {
    if (code === current.unique_code) return;
    saveBusinessCode(code);
    queryClient.clear();
    void Promise.resolve(navigate(DASHBOARD_PATH)).then(() => revalidator.revalidate());
  };
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size="sm" aria-label={`${SHELL_STRINGS.switchBusiness}: ${current.name}`}>
          <span className="max-w-32 truncate sm:max-w-48">{current.name}</span>
          <ChevronsUpDownIcon aria-hidden="true" className="text-muted-foreground" />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="start" className="w-60">
        <DropdownMenuLabel>{SHELL_STRINGS.businesses}</DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuRadioGroup value={current.unique_code} onValueChange={switchTo}>
          {businesses.map((business) => (
            <DropdownMenuRadioItem key={business.unique_code} value={business.unique_code}>
              <span className="truncate">{business.name}</span>
            </DropdownMenuRadioItem>
          ))}
        </DropdownMenuRadioGroup>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
