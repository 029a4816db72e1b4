// POST /api/template/gpt-prompt-email/ as server-sent events: the model's text as it arrives, what
// is happening (writing, compiling, repairing), then the compiled template or why there is none.
// Refusals before the stream (400, 409 no model, 429) reject like any API call.
import {
  ZEmailTemplateStreamEvent,
  type TEmailTemplateStreamEvent,
  type TGenerateEmailTemplateRequest,
} from '@titan/contracts';

import { postEventStream } from '../../../lib/event-stream';
import { EMAIL_TEMPLATES_API_PATH } from '../../../lib/email-templates';

export const GENERATE_EMAIL_TEMPLATE_PATH = `${EMAIL_TEMPLATES_API_PATH}gpt-prompt-email/`;

export async function streamEmailTemplateGeneration(
  input: TGenerateEmailTemplateRequest,
  onEvent: (event: TEmailTemplateStreamEvent) => void,
  signal?: AbortSignal,
): Promise<void> {
  await postEventStream(
    GENERATE_EMAIL_TEMPLATE_PATH,
    input,
    (raw) => {
      let json: unknown;
      try {
        json = JSON.parse(raw.data);
      } catch {
        return;
      }
      // Events of kinds this app does not know yet are skipped.
      const event = ZEmailTemplateStreamEvent.safeParse(json);
      if (event.success) onEvent(event.data);
    },
    signal,
  );
}
