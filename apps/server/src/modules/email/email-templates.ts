// SEAM — replaced at merge by a re-export of modules/templates/templates.service.ts (the templates
// lane): `export { loadCompiledTemplate, renderCompiled, TemplateRenderError, type CompiledTemplate } from '../templates/templates.service';`
//
// Until then there are no email templates in this branch: every template id is unknown (the send
// answers 404 on `template_id`). Subject + html/text sends do not come through here.
import type { Db } from '../../db/client';

export type CompiledTemplate = { id: number; version: number; name: string } & Record<string, unknown>;

/** A strict-variable miss or another render failure; its message says the line and the reason. */
export class TemplateRenderError extends Error {
  override name = 'TemplateRenderError';
}

type Templates = {
  load(db: Db, businessId: number, templateId: number): Promise<CompiledTemplate | null>;
  render(
    t: CompiledTemplate,
    variables: Record<string, unknown>,
  ): { subject: string; html: string; text: string };
};

let templates: Templates = {
  load: async () => null,
  render: () => {
    throw new TemplateRenderError('Email templates are not part of this build.');
  },
};

export function loadCompiledTemplate(
  db: Db,
  businessId: number,
  templateId: number,
): Promise<CompiledTemplate | null> {
  return templates.load(db, businessId, templateId);
}

export function renderCompiled(
  t: CompiledTemplate,
  variables: Record<string, unknown>,
): { subject: string; html: string; text: string } {
  return templates.render(t, variables);
}

/** Tests only: stands in for the templates lane until the merge. */
export function setTemplatesForTests(next: Templates | null): void {
  if (process.env.NODE_ENV !== 'test' && !process.env.VITEST) throw new Error('test-only seam');
  templates = next ?? {
    load: async () => null,
    render: () => {
      throw new TemplateRenderError('Email templates are not part of this build.');
    },
  };
}
