// A business's brand for mail and its saved blocks (issue 31): what the visual editor builds its
// brand blocks from, and MJML fragments saved from it for every template of the business. Neither
// changes what templates store: a block inserted into a template becomes part of its MJML.
import {
  EMAIL_BLOCKS_LIMIT,
  EMAIL_BRAND_DEFAULTS,
  EMAIL_BRAND_ERRORS as M,
  type TCreateEmailBlockRequest,
  type TEmailBlock,
  type TEmailBrand,
  type TEmailBrandFont,
  type TUpdateEmailBrandRequest,
} from '@titan/contracts';
import type { Db } from '../../db/client';
import { AppError } from '../../platform/errors';
import * as repo from './templates.brand.repository';

function toBrand(row: repo.BrandRow | null): TEmailBrand {
  if (!row) return EMAIL_BRAND_DEFAULTS;
  return {
    logo_url: row.logoUrl,
    primary_color: row.primaryColor,
    text_color: row.textColor,
    font_family: row.fontFamily as TEmailBrandFont,
    footer_address: row.footerAddress,
    updated_at: row.updatedAt.toISOString(),
  };
}

function toBlock(row: repo.BlockRow): TEmailBlock {
  return { id: row.id, name: row.name, content: row.content, created_at: row.createdAt.toISOString() };
}

export async function findBrand(db: Db, businessId: number): Promise<TEmailBrand> {
  return toBrand(await repo.findBrand(db, businessId));
}

export async function saveBrand(
  db: Db,
  businessId: number,
  input: TUpdateEmailBrandRequest,
): Promise<TEmailBrand> {
  return toBrand(
    await repo.upsertBrand(db, businessId, {
      logoUrl: input.logo_url,
      // Lower-cased once, so the blocks made from them read the same everywhere.
      primaryColor: input.primary_color.toLowerCase(),
      textColor: input.text_color.toLowerCase(),
      fontFamily: input.font_family,
      footerAddress: input.footer_address,
    }),
  );
}

/**
 * The brand's logo and primary colour are also the look of the business's public consent pages
 * (the preference centre, the opt-in confirmation): one setting, made on the Brand screen or through
 * `PUT /api/consent/page/`. Undefined keeps a field; a null colour goes back to the default.
 */
export async function saveBrandLook(
  db: Db,
  businessId: number,
  look: { logo_url?: string | null; primary_color?: string | null },
): Promise<TEmailBrand> {
  const d = EMAIL_BRAND_DEFAULTS;
  return toBrand(
    await repo.upsertBrandLook(
      db,
      businessId,
      {
        ...(look.logo_url !== undefined ? { logoUrl: look.logo_url } : {}),
        ...(look.primary_color !== undefined
          ? { primaryColor: (look.primary_color ?? d.primary_color).toLowerCase() }
          : {}),
      },
      {
        logoUrl: d.logo_url,
        primaryColor: d.primary_color,
        textColor: d.text_color,
        fontFamily: d.font_family,
        footerAddress: d.footer_address,
      },
    ),
  );
}

export async function findBlocks(db: Db, businessId: number): Promise<TEmailBlock[]> {
  return (await repo.listBlocks(db, businessId)).map(toBlock);
}

export async function createBlock(
  db: Db,
  businessId: number,
  createdBy: number | null,
  input: TCreateEmailBlockRequest,
): Promise<TEmailBlock> {
  if ((await repo.countBlocks(db, businessId)) >= EMAIL_BLOCKS_LIMIT) {
    throw AppError.fields({ non_field_errors: [M.blocksLimit] });
  }
  try {
    return toBlock(await repo.insertBlock(db, businessId, { ...input, createdBy }));
  } catch (err) {
    if (err instanceof repo.BlockNameTakenError) throw AppError.fields({ name: [M.blockNameTaken] });
    throw err;
  }
}

export async function deleteBlock(db: Db, businessId: number, id: number): Promise<void> {
  if (!(await repo.deleteBlock(db, businessId, id))) throw AppError.notFound(M.blockNotFound);
}
