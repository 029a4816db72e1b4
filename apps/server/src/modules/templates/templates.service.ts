// Email templates (engage.md §2): CRUD with a version per save, restore, previews, images for mail,
// and what sends call per recipient: loadCompiledTemplate (once per send or batch) and
// renderCompiled (per recipient: Liquid only, no MJML, no parsing, no database).
import { LRUCache } from 'lru-cache';
import {
  EMAIL_TEMPLATE_ERRORS as M,
  TEMPLATE_IMAGE_LIMIT_BYTES,
  TEMPLATE_IMAGE_TYPES,
  type TCreateEmailTemplateRequest,
  type TEmailTemplate,
  type TEmailTemplateDraft,
  type TEmailTemplatePreview,
  type TEmailTemplatePreviewRequest,
  type TEmailTemplateSummary,
  type TEmailTemplateVersion,
  type TTemplateImage,
  type TUpdateEmailTemplateRequest,
} from '@titan/contracts';
import type { Db } from '../../db/client';
import { AppError } from '../../platform/errors';
import { isSafeKey, type Storage } from '../../platform/storage';
import { recordEvent } from '../analytics';
import { findBusiness } from '../business';
import type { InboxScope } from '../../platform/inbox-scope';
import { findVisitor } from '../directory';
import { findFile, sniffMimeType, storeUpload } from '../files';
import {
  compileSource,
  prepareCompiled,
  renderCompiled,
  TemplateRenderError,
  type CompiledTemplate,
  type TemplateSource,
} from './templates.compile';
import * as repo from './templates.repository';

export { renderCompiled, TemplateRenderError, type CompiledTemplate };

export type TemplatesDeps = { db: Db; storage: Storage; publicUrl: string };

/** The versions list answers at most this many, newest first. */
export const VERSIONS_LIMIT = 100;

function toTemplate(row: repo.TemplateRow): TEmailTemplate {
  return {
    id: row.id,
    name: row.name,
    subject: row.subject,
    preheader: row.preheader,
    format: row.format,
    content: row.content,
    text_content: row.textContent,
    variables: row.variables,
    version: row.version,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    thumbnail_url: row.thumbnailUrl,
  };
}

function toSummary(row: repo.TemplateRow): TEmailTemplateSummary {
  const { content: _content, text_content: _text, ...summary } = toTemplate(row);
  return summary;
}

function toVersion(row: repo.TemplateVersionRow): TEmailTemplateVersion {
  return {
    version: row.version,
    name: row.name,
    subject: row.subject,
    preheader: row.preheader,
    format: row.format,
    content: row.content,
    text_content: row.textContent,
    variables: row.variables,
    created_by: row.createdBy,
    created_at: row.createdAt.toISOString(),
  };
}

const nameTaken = () => AppError.fields({ name: [M.nameTaken] });

/** Compiles a source for a save: field errors answer 400 with the line and the reason. */
async function compileForSave(
  name: string,
  src: TemplateSource,
  createdBy: number | null,
): Promise<repo.VersionValues> {
  const result = await compileSource(src);
  if (!result.ok) throw AppError.fields(result.errors);
  return { name, ...src, ...result.compiled, createdBy };
}

export async function findTemplates(db: Db, businessId: number): Promise<TEmailTemplateSummary[]> {
  return (await repo.listTemplates(db, businessId)).map(toSummary);
}

export async function findTemplate(db: Db, businessId: number, id: number): Promise<TEmailTemplate> {
  const row = await repo.findTemplate(db, businessId, id);
  if (!row) throw AppError.notFound(M.notFound);
  return toTemplate(row);
}

export async function createTemplate(
  db: Db,
  businessId: number,
  createdBy: number | null,
  input: TCreateEmailTemplateRequest,
  requestId?: string,
): Promise<TEmailTemplate> {
  const values = await compileForSave(
    input.name,
    {
      subject: input.subject,
      preheader: input.preheader,
      format: input.format,
      content: input.content,
      textContent: input.text_content || null,
    },
    createdBy,
  );
  let row: repo.TemplateRow;
  try {
    row = await repo.insertTemplate(db, businessId, values);
  } catch (err) {
    if (err instanceof repo.NameTakenError) throw nameTaken();
    throw err;
  }
  // The spec's tracked event for a template made (section "Tracked analytics events").
  await recordEvent(db, {
    event: 'user_created_template',
    userId: createdBy,
    businessId,
    requestId: requestId ?? null,
    properties: { template_id: row.id, channel: 'email', format: row.format },
  });
  return toTemplate(row);
}

const SOURCE_FIELDS = ['subject', 'preheader', 'format', 'content', 'text_content'] as const;

function sameSource(a: TemplateSource, b: TemplateSource): boolean {
  return (
    a.subject === b.subject &&
    a.preheader === b.preheader &&
    a.format === b.format &&
    a.content === b.content &&
    (a.textContent ?? null) === (b.textContent ?? null)
  );
}

/**
 * A save. A changed source (or `restore_version`: that version's source) becomes a new version;
 * history is never rewritten. A rename alone writes no version. `base_version` guards against
 * overwriting a save made elsewhere (409).
 */
export async function updateTemplate(
  db: Db,
  businessId: number,
  createdBy: number | null,
  id: number,
  input: TUpdateEmailTemplateRequest,
): Promise<TEmailTemplate> {
  const changes = SOURCE_FIELDS.some((f) => input[f] !== undefined) || input.name !== undefined;
  if (input.restore_version !== undefined && changes) {
    throw AppError.fields({ restore_version: [M.restoreAlone] });
  }
  if (input.restore_version === undefined && !changes) {
    throw AppError.fields({ non_field_errors: [M.nothingToSave] });
  }
  try {
    const row = await repo.inTransaction(db, async (tx) => {
      const current = await repo.findTemplate(tx, businessId, id, true);
      if (!current) throw AppError.notFound(M.notFound);
      if (input.base_version !== undefined && input.base_version !== current.version) {
        throw new AppError('conflict', M.staleVersion);
      }
      const before: TemplateSource = {
        subject: current.subject,
        preheader: current.preheader,
        format: current.format,
        content: current.content,
        textContent: current.textContent,
      };
      let source: TemplateSource;
      if (input.restore_version !== undefined) {
        const old = await repo.findVersion(tx, businessId, id, input.restore_version);
        if (!old) throw AppError.fields({ restore_version: [M.versionNotFound] });
        source = {
          subject: old.subject,
          preheader: old.preheader,
          format: old.format,
          content: old.content,
          textContent: old.textContent,
        };
      } else {
        source = {
          subject: input.subject ?? before.subject,
          preheader: input.preheader ?? before.preheader,
          format: input.format ?? before.format,
          content: input.content ?? before.content,
          textContent: input.text_content === undefined ? before.textContent : input.text_content || null,
        };
      }
      const name = input.name ?? current.name;
      if (sameSource(source, before) && input.restore_version === undefined) {
        return name === current.name ? current : repo.renameTemplate(tx, current, name);
      }
      return repo.insertVersion(tx, current, await compileForSave(name, source, createdBy));
    });
    return toTemplate(row);
  } catch (err) {
    if (err instanceof repo.NameTakenError) throw nameTaken();
    throw err;
  }
}

export async function deleteTemplate(db: Db, businessId: number, id: number): Promise<void> {
  if (!(await repo.deleteTemplate(db, businessId, id))) throw AppError.notFound(M.notFound);
}

export async function findVersions(db: Db, businessId: number, id: number): Promise<TEmailTemplateVersion[]> {
  if (!(await repo.findTemplate(db, businessId, id))) throw AppError.notFound(M.notFound);
  return (await repo.listVersions(db, businessId, id, VERSIONS_LIMIT)).map(toVersion);
}

// ---- Compiled templates: what sends use ----

/**
 * Parsed versions per database (ids are its own) by template id and version (a version never
 * changes once saved).
 */
const compiledCaches = new WeakMap<Db, LRUCache<string, CompiledTemplate>>();

/**
 * The current version of a template of the business, ready to render: MJML was compiled when the
 * version was saved; its Liquid is parsed here once and kept (LRU by template id and version).
 * Null when the business has no such template.
 */
export async function loadCompiledTemplate(
  db: Db,
  businessId: number,
  templateId: number,
): Promise<CompiledTemplate | null> {
  const row = await repo.findCurrentVersion(db, businessId, templateId);
  if (!row) return null;
  let compiledCache = compiledCaches.get(db);
  if (!compiledCache) compiledCaches.set(db, (compiledCache = new LRUCache({ max: 200 })));
  const key = `${row.templateId}:${row.version}`;
  const cached = compiledCache.get(key);
  if (cached) return cached;
  const compiled = prepareCompiled({
    id: row.templateId,
    businessId: row.businessId,
    version: row.version,
    name: row.name,
    subject: row.subject,
    preheader: row.preheader,
    format: row.format,
    content: row.content,
    textContent: row.textContent,
    variables: row.variables,
    compiledHtml: row.compiledHtml,
    compiledText: row.compiledText,
  });
  compiledCache.set(key, compiled);
  return compiled;
}

/** A customer as templates see them: their fields, then name, email and phone (which win). */
export type TemplateCustomer = {
  id: number;
  name: string | null;
  email: string | null;
  phone: string | null;
  fields?: Record<string, unknown> | null;
};

/**
 * The variables a template is rendered with: the caller's, then `customer` (when one is given)
 * and `business` ({name}), which the caller cannot override.
 */
export function templateVariables(input: {
  business: { name: string };
  customer?: TemplateCustomer | null;
  variables?: Record<string, unknown>;
}): Record<string, unknown> {
  const scope: Record<string, unknown> = { ...(input.variables ?? {}) };
  if (input.customer) {
    const c = input.customer;
    scope.customer = { ...(c.fields ?? {}), id: c.id, name: c.name, email: c.email, phone: c.phone };
  }
  const given = scope.business;
  scope.business = {
    ...(given && typeof given === 'object' && !Array.isArray(given) ? given : {}),
    name: input.business.name,
  };
  return scope;
}

// ---- Preview ----

async function draftCompiled(
  businessId: number,
  draft: TEmailTemplateDraft,
): Promise<{ compiled: CompiledTemplate | null; errors: Record<string, string[]> }> {
  const result = await compileSource({
    subject: draft.subject,
    preheader: draft.preheader,
    format: draft.format,
    content: draft.content,
    textContent: draft.text_content || null,
  });
  if (!result.ok) return { compiled: null, errors: result.errors };
  try {
    const compiled = prepareCompiled({
      id: 0,
      businessId,
      version: 0,
      name: '',
      subject: draft.subject,
      preheader: draft.preheader,
      format: draft.format,
      content: draft.content,
      textContent: draft.text_content || null,
      ...result.compiled,
    });
    return { compiled, errors: {} };
  } catch (err) {
    if (err instanceof TemplateRenderError) return { compiled: null, errors: { [err.field]: [err.message] } };
    throw err;
  }
}

/**
 * A preview with a customer of the business (within what the caller may see) or sample variables,
 * of the saved template or of an unsaved draft. Problems in the template are answered in `errors`
 * (field → `Line N: reason`) beside an empty mail, so the editor can show them at the line.
 */
export async function previewTemplate(
  db: Db,
  scope: InboxScope,
  templateId: number | null,
  input: TEmailTemplatePreviewRequest,
): Promise<TEmailTemplatePreview> {
  const businessId = scope.businessId;
  let compiled: CompiledTemplate | null;
  let errors: Record<string, string[]> = {};
  if (templateId !== null) {
    // The template must exist even when a draft of it is previewed.
    if (!(await repo.findTemplate(db, businessId, templateId))) throw AppError.notFound(M.notFound);
  }
  if (input.draft) {
    ({ compiled, errors } = await draftCompiled(businessId, input.draft));
  } else {
    compiled = await loadCompiledTemplate(db, businessId, templateId!);
    if (!compiled) throw AppError.notFound(M.notFound);
  }
  let customer: TemplateCustomer | null = null;
  if (input.customer_id !== undefined) {
    try {
      customer = await findVisitor(db, scope, input.customer_id);
    } catch (err) {
      if (err instanceof AppError && err.code === 'not_found') {
        throw AppError.fields({ customer_id: [M.customerNotFound] });
      }
      throw err;
    }
  }
  const empty = { subject: '', html: '', text: '' };
  if (!compiled) return { ...empty, errors };
  const business = await findBusiness(db, businessId);
  try {
    const mail = renderCompiled(
      compiled,
      templateVariables({ business, customer, variables: input.variables }),
    );
    return { ...mail, errors };
  } catch (err) {
    if (!(err instanceof TemplateRenderError)) throw err;
    return { ...empty, errors: { [err.field]: [err.message] } };
  }
}

// ---- Images for mail: public/template_images/{id or default} ----

export const TEMPLATE_IMAGES_FOLDER = 'public/template_images';

/** The absolute, permanent URL of a stored template image (served by the public image route). */
export function templateImageUrl(publicUrl: string, key: string): string {
  return `${publicUrl}/${key.split('/').map(encodeURIComponent).join('/')}`;
}

/**
 * An image for mail: PNG, JPEG, GIF or WebP by its bytes (never by its name or the client's
 * type), at most 5 MB, kept under public/template_images/{template id or default}.
 */
export async function uploadTemplateImage(
  deps: TemplatesDeps,
  businessId: number,
  templateId: number | null,
  file: { fileName: string; bytes: Buffer },
): Promise<TTemplateImage> {
  if (templateId !== null && !(await repo.findTemplate(deps.db, businessId, templateId))) {
    throw AppError.notFound(M.notFound);
  }
  if (file.bytes.length === 0) throw AppError.fields({ file: [M.emptyFile] });
  if (file.bytes.length > TEMPLATE_IMAGE_LIMIT_BYTES) {
    throw new AppError('payload_too_large', M.imageTooLarge, { file: [M.imageTooLarge] });
  }
  const mimeType = await sniffMimeType(file.bytes, file.fileName);
  if (!(TEMPLATE_IMAGE_TYPES as readonly string[]).includes(mimeType)) {
    throw AppError.fields({ file: [M.notAnImage] }, M.notAnImage);
  }
  const folder = `${TEMPLATE_IMAGES_FOLDER}/${templateId ?? 'default'}`;
  const stored = await storeUpload(deps, businessId, folder, file, TEMPLATE_IMAGE_LIMIT_BYTES);
  return {
    url: templateImageUrl(deps.publicUrl, stored.key),
    key: stored.key,
    size: stored.size,
    mime_type: stored.mime_type,
    file_name: stored.file_name,
  };
}

/** A template image's bytes for its public URL; anything else under that path is not found. */
export async function findTemplateImage(
  deps: TemplatesDeps,
  key: string,
): Promise<{ bytes: Buffer; mimeType: string } | null> {
  if (!key.startsWith(`${TEMPLATE_IMAGES_FOLDER}/`) || !isSafeKey(key)) return null;
  const meta = await findFile(deps.db, key);
  if (!meta || !(TEMPLATE_IMAGE_TYPES as readonly string[]).includes(meta.mimeType)) return null;
  const bytes = await deps.storage.get(key);
  return bytes ? { bytes, mimeType: meta.mimeType } : null;
}

/** Whether the business has this email template (agent configs name one by id). */
export async function templateExists(db: Db, businessId: number, id: number): Promise<boolean> {
  return (await repo.findTemplate(db, businessId, id)) !== null;
}
