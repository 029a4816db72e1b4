// The public face of the campaigns module: what other modules and the app's composition may use.
// Everything else in modules/campaigns/ is private to it (eslint: titan-server/module-faces).

export { campaignRoutes } from './campaigns.routes';
export { defineCampaignQueues } from './campaigns.runner';
export { outOfQuietHours, recipientZone } from './campaigns.schedule';
export type { CampaignDeps } from './campaigns.service';
