// "Export CSV" of the audience: GET /api/business/customer-directory/download/?search=&list_id= —
// the directory, the search shown, or one list or segment — saved by the browser under the server's
// file name. Shown to owners and admins only (engage.write), who alone may export. Shared by the
// directory and a list's page.
import { useMutation } from '@tanstack/react-query';
import type { TDirectoryExportQuery } from '@titan/contracts';
import { DownloadIcon } from 'lucide-react';
import { toast } from 'sonner';

import { apiErrorMessage, isHandledApiError } from '../lib/api-errors';
import { usePermissions } from '../lib/business/roles';
import { exportAudience } from '../lib/audience-export';
import { AUDIENCE_EXPORT_STRINGS as S } from '../lib/strings';
import { Button } from './ui/button';
import { Spinner } from './ui/spinner';

export function AudienceExportButton({ query = {} }: { query?: TDirectoryExportQuery }) {
  const { can } = usePermissions();
  const download = useMutation({ mutationFn: exportAudience });
  if (!can('engage.write')) return null;
  return (
    <Button
      variant="outline"
      disabled={download.isPending}
      onClick={() =>
        download.mutate(query, {
          onSuccess: (fileName) => toast.success(S.exported(fileName)),
          onError: (error) => {
            if (!isHandledApiError(error)) toast.error(apiErrorMessage(error, S.failed));
          },
        })
      }
    >
      {download.isPending ? <Spinner /> : <DownloadIcon aria-hidden="true" />}
      {download.isPending ? S.exporting : S.exportCsv}
    </Button>
  );
}
