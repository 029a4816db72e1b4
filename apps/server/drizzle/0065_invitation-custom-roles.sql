-- Invitations may offer a custom role (issue 34): custom_role_id in place of the built-in role
-- (invitations.role is then 'agent', as on memberships). Deleting the role withdraws the
-- invitations that offer it, so nobody joins with a role that no longer exists.
ALTER TABLE "invitations" ADD COLUMN "custom_role_id" bigint REFERENCES "custom_roles"("id") ON DELETE cascade;
