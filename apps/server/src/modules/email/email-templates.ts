// Email templates for sends: the templates module's compiled versions and per-recipient render.
// Tests of the sending path may stand in templates of their own with `setTemplatesForTests`.
import type { Db } from '../../db/client';
import {
  type CompiledTemplate,
  loadCompiledTemplate as loadTemplate,
  renderCompiled as renderTemplate,
  TemplateRenderError,
} from '../templates';

export { TemplateRenderError, type CompiledTemplate };

type Templates = {
  load(db: Db, businessId: number, templateId: number): Promise<CompiledTemplate | null>;
  render(
    t: CompiledTemplate,
    variables: Record<string, unknown>,
  ): { subject: string; html: string; text: string };
};

const real: Templates = { load: loadTemplate, render: renderTemplate };
let templates: Templates = real;

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

/** Tests only: templates of the test's own (null restores the templates module's). */
export function setTemplatesForTests(next: Templates | null): void {
  if (process.env.NODE_ENV !== 'test' && !process.env.VITEST) throw new Error('test-only seam');
  templates = next ?? real;
}
