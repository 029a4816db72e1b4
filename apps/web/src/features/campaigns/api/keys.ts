// Where the campaigns API lives and the key every campaigns query starts with.
import { BUSINESS_SCOPE } from '../../../lib/query-client';

export const CAMPAIGNS_API_PATH = '/api/campaigns/';
export const campaignApiPath = (id: string) => `${CAMPAIGNS_API_PATH}${id}/`;
export const CAMPAIGNS_KEY = [BUSINESS_SCOPE, 'campaigns'] as const;
