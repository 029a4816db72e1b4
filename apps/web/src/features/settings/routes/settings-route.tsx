// /engage/settings/{tab}: Business profile, Team, Roles, API keys and Profile (Chat groups, WhatsApp, SMS,
// Email domains, Inbox addresses, QR form, AI model, MCP servers, Plugins, Webhooks and Billing are their features' own routes, composed in by the app). An
// unknown tab opens the first.
import { Navigate, useParams } from 'react-router';

import { SETTINGS_TABS, settingsPath, type TSettingsTab } from '../../../config/paths';
import { ApiKeysTab } from '../components/api-keys-tab';
import { AuditLogTab } from '../components/audit-log-tab';
import { BusinessProfileTab } from '../components/business-profile-tab';
import { ProfileTab } from '../components/profile-tab';
import { SecurityTab } from '../components/security-tab';
import { RolesTab } from '../components/roles-tab';
import { TeamTab } from '../components/team-tab';
import { LabelsTab } from '../components/labels-tab';
import { CannedResponsesTab } from '../components/canned-responses-tab';

/** The tabs other features draw. */
const COMPOSED_TABS = [
  'chat-groups',
  'whatsapp',
  'sms',
  'email-domains',
  'inbox-addresses',
  'qr-form',
  'ai-model',
  'mcp-servers',
  'plugins',
  'webhooks',
  'billing',
  'notifications',
] as const;
/** The tabs this feature draws itself. */
type TOwnTab = Exclude<TSettingsTab, (typeof COMPOSED_TABS)[number]>;

function isOwnTab(value: string | undefined): value is TOwnTab {
  return SETTINGS_TABS.some((tab) => tab === value && !(COMPOSED_TABS as readonly string[]).includes(tab));
}

function TabContent({ tab }: { tab: TOwnTab }) {
  switch (tab) {
    case 'business':
      return <BusinessProfileTab />;
    case 'team':
      return <TeamTab />;
    case 'roles':
      return <RolesTab />;
    case 'api-keys':
      return <ApiKeysTab />;
    case 'profile':
      return <ProfileTab />;
    case 'security':
      return <SecurityTab />;
    case 'audit-log':
      return <AuditLogTab />;
    case 'labels':
      return <LabelsTab />;
    case 'canned-responses':
      return <CannedResponsesTab />;
    default: {
      const unreachable: never = tab;
      return unreachable;
    }
  }
}

export function SettingsRoute() {
  const { tab } = useParams();
  if (!isOwnTab(tab)) return <Navigate to={settingsPath('business')} replace />;
  return <TabContent tab={tab} />;
}
