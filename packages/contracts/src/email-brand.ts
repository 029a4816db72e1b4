// Email brand and saved blocks (issue 31, "Email that marketers can write"): a business's brand for
// mail (logo, colours, font, footer) that the visual editor turns into ready-made MJML blocks, and
// the MJML fragments staff save from the editor to reuse in every template of the business.
import { z } from 'zod';

/** Fonts every mail client has: the brand names one, mail gets its stack with fallbacks. */
export const EMAIL_BRAND_FONTS = {
  Arial: 'Arial, Helvetica, sans-serif',
  Helvetica: 'Helvetica, Arial, sans-serif',
  Verdana: 'Verdana, Geneva, sans-serif',
  'Trebuchet MS': "'Trebuchet MS', Helvetica, sans-serif",
  Georgia: 'Georgia, Times, serif',
  'Times New Roman': "'Times New Roman', Times, serif",
  'Courier New': "'Courier New', Courier, monospace",
} as const;
export const EMAIL_BRAND_FONT_NAMES = Object.keys(EMAIL_BRAND_FONTS) as [
  keyof typeof EMAIL_BRAND_FONTS,
  ...(keyof typeof EMAIL_BRAND_FONTS)[],
];
export type TEmailBrandFont = keyof typeof EMAIL_BRAND_FONTS;

/** The largest saved block (an MJML fragment), in characters. */
export const EMAIL_BLOCK_MAX_CHARS = 100_000;
/** How many saved blocks a business may keep. */
export const EMAIL_BLOCKS_LIMIT = 200;

export const EMAIL_BRAND_ERRORS = {
  color: 'Enter a colour as #rrggbb.',
  logoUrl: 'Upload the logo as an image for email (its URL starts with http:// or https://).',
  blockNotFound: 'Block not found.',
  blockNameTaken: 'A block with this name already exists.',
  blockNotMjml: 'A block is MJML: it starts with an <mj-…> tag, such as <mj-section>.',
  blockTooLarge: `A block can be at most ${EMAIL_BLOCK_MAX_CHARS.toLocaleString('en')} characters.`,
  blocksLimit: `A business can keep at most ${EMAIL_BLOCKS_LIMIT} blocks: delete one first.`,
} as const;

const M = EMAIL_BRAND_ERRORS;
const color = z
  .string()
  .trim()
  .regex(/^#[0-9a-fA-F]{6}$/, { message: M.color });

/** What `GET /api/template/brand/` answers; a business that saved none gets the defaults. */
export const ZEmailBrand = z.object({
  logo_url: z.string().nullable(),
  primary_color: z.string(),
  text_color: z.string(),
  font_family: z.enum(EMAIL_BRAND_FONT_NAMES),
  /** The postal address shown in the footer (CAN-SPAM and the like ask for one). */
  footer_address: z.string(),
  /** Null until the brand is first saved. */
  updated_at: z.string().nullable(),
});
export type TEmailBrand = z.infer<typeof ZEmailBrand>;

export const EMAIL_BRAND_DEFAULTS: TEmailBrand = {
  logo_url: null,
  primary_color: '#2563eb',
  text_color: '#1f2937',
  font_family: 'Arial',
  footer_address: '',
  updated_at: null,
};

/** `PUT /api/template/brand/`: the whole brand. */
export const ZUpdateEmailBrandRequest = z.object({
  logo_url: z
    .string()
    .trim()
    .max(2000)
    .regex(/^https?:\/\/[^\s"'<>]+$/, { message: M.logoUrl })
    .nullable(),
  primary_color: color,
  text_color: color,
  font_family: z.enum(EMAIL_BRAND_FONT_NAMES),
  footer_address: z.string().trim().max(500),
});
export type TUpdateEmailBrandRequest = z.infer<typeof ZUpdateEmailBrandRequest>;

export const ZEmailBlock = z.object({
  id: z.number().int(),
  name: z.string(),
  /** An MJML fragment (`<mj-section>…</mj-section>` and the like), as the editor inserts it. */
  content: z.string(),
  created_at: z.string(),
});
export type TEmailBlock = z.infer<typeof ZEmailBlock>;

export const ZCreateEmailBlockRequest = z.object({
  name: z.string().trim().min(1).max(100),
  content: z
    .string()
    .trim()
    .min(1)
    .max(EMAIL_BLOCK_MAX_CHARS, { message: M.blockTooLarge })
    .regex(/^<mj-[a-z-]+[\s/>]/, { message: M.blockNotMjml }),
});
export type TCreateEmailBlockRequest = z.infer<typeof ZCreateEmailBlockRequest>;

// ---- The brand as MJML: the visual editor's brand blocks and "New template from brand" ----

/** The variable the send path fills with each mail's unsubscribe link (email.service buildSend). */
export const UNSUBSCRIBE_URL_VARIABLE = '{{ unsubscribe_url }}';

export type TEmailBrandBlockId = 'brand-header' | 'brand-button' | 'brand-footer';

/** Text for MJML: HTML-escaped, line breaks kept, and no Liquid (`{` as an entity). */
function escapeText(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/[{}]/g, (c) => (c === '{' ? '&#123;' : '&#125;'))
    .split(/\r?\n/)
    .join('<br />');
}

/** An attribute value: the schema already refuses quotes and angle brackets in URLs and colours. */
const attr = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;');

/** The brand's ready-made blocks, each one `<mj-section>` carrying the brand's values. */
export function emailBrandBlocks(
  brand: Pick<TEmailBrand, 'logo_url' | 'primary_color' | 'text_color' | 'font_family' | 'footer_address'>,
): { id: TEmailBrandBlockId; label: string; content: string }[] {
  const font = attr(EMAIL_BRAND_FONTS[brand.font_family]);
  const primary = attr(brand.primary_color);
  const text = attr(brand.text_color);
  const logo = brand.logo_url
    ? `<mj-image src="${attr(brand.logo_url)}" alt="{{ business.name }}" width="160px" align="center" />`
    : `<mj-text align="center" font-family="${font}" font-size="22px" font-weight="700" color="${primary}">{{ business.name }}</mj-text>`;
  const address = brand.footer_address.trim();
  return [
    {
      id: 'brand-header',
      label: 'Header with logo',
      content: `<mj-section padding="20px 0"><mj-column>${logo}</mj-column></mj-section>`,
    },
    {
      id: 'brand-button',
      label: 'Button in brand colour',
      content:
        `<mj-section><mj-column><mj-button href="https://example.com" background-color="${primary}" ` +
        `color="#ffffff" font-family="${font}" border-radius="6px">Find out more</mj-button></mj-column></mj-section>`,
    },
    {
      id: 'brand-footer',
      label: 'Footer',
      content:
        `<mj-section padding="16px 0"><mj-column><mj-text align="center" font-family="${font}" ` +
        `font-size="12px" line-height="18px" color="${text}">` +
        `${address ? `${escapeText(address)}<br />` : ''}` +
        `<a href="${UNSUBSCRIBE_URL_VARIABLE}" style="color: ${text};">Unsubscribe</a>` +
        `</mj-text></mj-column></mj-section>`,
    },
  ];
}

/** A whole template in the brand: header, a greeting, a button and the footer. */
export function emailBrandStarter(brand: Parameters<typeof emailBrandBlocks>[0]): string {
  const blocks = Object.fromEntries(emailBrandBlocks(brand).map((b) => [b.id, b.content]));
  const font = attr(EMAIL_BRAND_FONTS[brand.font_family]);
  const text = attr(brand.text_color);
  return `<mjml>
  <mj-body background-color="#f4f4f5">
    ${blocks['brand-header']}
    <mj-section background-color="#ffffff" padding="24px"><mj-column><mj-text font-family="${font}" color="${text}" font-size="20px" font-weight="600">Hello {{ customer.name | default: "there" }},</mj-text><mj-text font-family="${font}" color="${text}">Thanks for being with {{ business.name }}.</mj-text></mj-column></mj-section>
    ${blocks['brand-button']}
    ${blocks['brand-footer']}
  </mj-body>
</mjml>
`;
}
