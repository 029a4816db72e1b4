// Settings → Team: members for everyone; inviting, invitations and join requests with team.manage.
import { useProfile } from '../../../lib/session/profile';
import { usePermissions, useRoles } from '../../../lib/business/roles';
import { InvitationsCard } from './invitations-card';
import { InviteMemberCard } from './invite-member-card';
import { JoinRequestsCard } from './join-requests-card';
import { MembersCard } from './members-card';

export function TeamTab() {
  const roles = useRoles();
  const profile = useProfile();
  const { can } = usePermissions();
  const canManage = can('team.manage');
  return (
    <div className="grid gap-6">
      <MembersCard roles={roles.data} currentUserId={profile.data?.pk ?? 0} canManage={canManage} />
      {canManage ? (
        <>
          <InviteMemberCard roles={roles.data} />
          <InvitationsCard roles={roles.data} />
          <JoinRequestsCard roles={roles.data} />
        </>
      ) : null}
    </div>
  );
}
