// Migration 0089 on a database written before it: a business's preference-centre look moves into
// its email brand (one setting). A business without a brand gets one of the defaults with its page's
// logo and colour; one with a brand keeps it, gaining the page's logo only where it had none.
import { describe, expect, it } from 'vitest';
import { acrossMigration, insertedId } from '../../testing/test-runtime';

describe('migration 0089 on a database with consent page looks', () => {
  it('moves each page look into the business’s email brand', async () => {
    await acrossMigration(
      '0089',
      async (old) => {
        const business = (code: string) =>
          insertedId(old, `insert into businesses (name, unique_code) values ($1, $1) returning id`, [code]);
        const ids = [
          await business('no-brand-0089'),
          await business('brand-0089'),
          await business('brand-logo-0089'),
          await business('neutral-0089'),
        ] as const;
        const [noBrand, withBrand, withLogo, neutral] = ids;
        const page = (b: number, logo: string | null, accent: string | null) =>
          old.query(`insert into consent_pages (business_id, logo_url, accent_color) values ($1, $2, $3)`, [
            b,
            logo,
            accent,
          ]);
        await page(noBrand, 'https://cdn.example.test/a.png', '#1D4ED8');
        await page(withBrand, 'https://cdn.example.test/b.png', '#000000');
        await page(withLogo, 'https://cdn.example.test/c.png', null);
        await page(neutral, null, null);
        const brand = (b: number, logo: string | null) =>
          old.query(
            `insert into email_brands (business_id, logo_url, primary_color, text_color, font_family, footer_address)
             values ($1, $2, '#aa3300', '#111111', 'Georgia', '1 Quay Street')`,
            [b, logo],
          );
        await brand(withBrand, null);
        await brand(withLogo, 'https://cdn.example.test/own.png');
        return ids;
      },
      async (rt, [noBrand, withBrand, withLogo, neutral]) => {
        const rows = await rt.database.query<Record<string, string | null>>(
          `select business_id::text, logo_url, primary_color, text_color, font_family, footer_address
           from email_brands where business_id = any($1::bigint[]) order by business_id`,
          [[noBrand, withBrand, withLogo, neutral]],
        );
        expect(rows).toEqual([
          {
            business_id: String(noBrand),
            logo_url: 'https://cdn.example.test/a.png',
            primary_color: '#1d4ed8',
            text_color: '#1f2937',
            font_family: 'Arial',
            footer_address: '',
          },
          {
            business_id: String(withBrand),
            logo_url: 'https://cdn.example.test/b.png',
            primary_color: '#aa3300',
            text_color: '#111111',
            font_family: 'Georgia',
            footer_address: '1 Quay Street',
          },
          {
            business_id: String(withLogo),
            logo_url: 'https://cdn.example.test/own.png',
            primary_color: '#aa3300',
            text_color: '#111111',
            font_family: 'Georgia',
            footer_address: '1 Quay Street',
          },
        ]);
        const [table] = await rt.database.query<{ name: string | null }>(
          `select to_regclass('consent_pages')::text as name`,
        );
        expect(table!.name).toBeNull();
      },
    );
    // Every migration from an empty database, on a machine shared with other suites.
  }, 240_000);
});
