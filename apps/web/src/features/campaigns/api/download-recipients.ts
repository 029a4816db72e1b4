// GET /api/campaigns/{id}/download/ → every recipient with their send, as CSV.
import { downloadCsv } from '../../../lib/download';
import { campaignApiPath } from './keys';

export const downloadRecipients = (id: string) =>
  downloadCsv({
    path: `${campaignApiPath(id)}download/`,
    timeout: 120_000,
    fallbackName: `campaign-${id}.csv`,
  });
