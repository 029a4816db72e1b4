// POST /api/template/{id}/test/ {to, from, variables} → 202 with the send: one test mail of the
// saved template, rendered as the preview renders it.
import { useMutation } from '@tanstack/react-query';
import { ZEmailSend, ZEnvelope, type TEmailSend } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { emailTemplateApiPath } from '../../../lib/email-templates';

export type TTestSend = { templateId: number; to: string; from: string; variables: Record<string, unknown> };

export function useSendTestEmail() {
  return useMutation({
    mutationFn: async ({ templateId, ...body }: TTestSend): Promise<TEmailSend> => {
      const { data } = await protectedClient.post(`${emailTemplateApiPath(templateId)}test/`, body);
      return ZEnvelope(ZEmailSend).parse(data).result;
    },
  });
}
