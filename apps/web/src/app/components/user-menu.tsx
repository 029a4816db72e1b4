// The signed-in person's menu: who they are, their profile, and "Log out".
import { PRESENCE_STATUSES, type TPresenceStatus } from '@titan/contracts';
import { LogOutIcon, UserIcon } from 'lucide-react';
import { useNavigate } from 'react-router';

import { Button } from '../../components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuRadioGroup,
  DropdownMenuRadioItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '../../components/ui/dropdown-menu';
import { PresenceDot } from '../../components/presence-dot';
import { settingsPath } from '../../config/paths';
import { logout } from '../../lib/session/logout';
import { usePresence } from '../../lib/session/presence';
import type { TProfile } from '../../lib/session/profile';
import { SHELL_STRINGS } from '../strings';

function initials(user: TProfile): string {
  const letters = [user.first_name, user.last_name].map((part) => part.trim().charAt(0)).join('');
  return (letters || user.email.charAt(0)).toUpperCase();
}

export function UserMenu({ user }: { user: TProfile }) {
  const navigate = useNavigate();
  const presence = usePresence();
  const statusLabel = SHELL_STRINGS.presenceStatuses[presence.shown];
  const name = [user.first_name, user.last_name].filter(Boolean).join(' ');
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button
          variant="outline"
          size="icon"
          className="relative rounded-full"
          aria-label={`${initials(user)}, ${SHELL_STRINGS.accountMenu}, ${SHELL_STRINGS.presenceOf(statusLabel)}`}
        >
          <span aria-hidden="true" className="text-xs font-semibold">
            {initials(user)}
          </span>
          <PresenceDot status={presence.shown} className="absolute right-0 bottom-0" />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-60">
        <DropdownMenuLabel className="grid gap-0.5">
          <span className="truncate">{name || user.email}</span>
          <span className="truncate text-xs font-normal text-muted-foreground">{user.email}</span>
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuLabel className="text-xs font-normal text-muted-foreground">
          {SHELL_STRINGS.presence}
        </DropdownMenuLabel>
        <DropdownMenuRadioGroup
          value={presence.choice}
          onValueChange={(value) => presence.choose(value as TPresenceStatus)}
        >
          {PRESENCE_STATUSES.map((status) => (
            <DropdownMenuRadioItem key={status} value={status}>
              <PresenceDot status={status} />
              {SHELL_STRINGS.presenceStatuses[status]}
            </DropdownMenuRadioItem>
          ))}
        </DropdownMenuRadioGroup>
        <DropdownMenuSeparator />
        <DropdownMenuItem onSelect={() => void navigate(settingsPath('profile'))}>
          <UserIcon aria-hidden="true" />
          {SHELL_STRINGS.profile}
        </DropdownMenuItem>
        <DropdownMenuItem onSelect={() => void logout('user')}>
          <LogOutIcon aria-hidden="true" />
          {SHELL_STRINGS.logOut}
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
