// Media the sim holds: Meta's upload rules (types and size limits per kind) and small but real
// sample files for inbound messages that do not bring their own bytes.
import { createHash } from 'node:crypto';
import { GraphError } from './graph-errors';

export type StoredMedia = { mime_type: string; bytes: Buffer; sha256: string; filename?: string };

export const MEDIA_KINDS = ['image', 'video', 'audio', 'document', 'sticker'] as const;
export type MediaKind = (typeof MEDIA_KINDS)[number];

const MB = 1024 * 1024;

const KINDS: Record<MediaKind, { types: string[]; limit: number }> = {
  image: { types: ['image/jpeg', 'image/png'], limit: 5 * MB },
  video: { types: ['video/mp4', 'video/3gpp'], limit: 16 * MB },
  audio: { types: ['audio/aac', 'audio/amr', 'audio/mpeg', 'audio/mp4', 'audio/ogg'], limit: 16 * MB },
  document: {
    types: [
      'text/plain',
      'application/pdf',
      'application/msword',
      'application/vnd.ms-excel',
      'application/vnd.ms-powerpoint',
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      'application/vnd.openxmlformats-officedocument.presentationml.presentation',
    ],
    limit: 100 * MB,
  },
  sticker: { types: ['image/webp'], limit: 500 * 1024 },
};

/** Stickers: 100 KB when static, 500 KB when animated (an ANIM chunk in the WebP). */
const STATIC_STICKER_LIMIT = 100 * 1024;

export function mediaKindOf(mime: string): MediaKind | undefined {
  const base = mime.split(';')[0]?.trim().toLowerCase() ?? '';
  return (Object.keys(KINDS) as MediaKind[]).find((k) => KINDS[k].types.includes(base));
}

/** Meta's upload checks; throws 131053 "Media upload error" with details. */
export function checkUpload(mime: string, bytes: Buffer): void {
  const kind = mediaKindOf(mime);
  if (!kind)
    throw new GraphError(
      131053,
      `Param file must be a file with one of the following types: ${Object.values(KINDS)
        .flatMap((k) => k.types)
        .join(', ')}. Received file of type '${mime}'.`,
    );
  if (bytes.length === 0) throw new GraphError(131053, 'Uploaded file is empty.');
  const animated = kind === 'sticker' && bytes.includes(Buffer.from('ANIM'));
  const limit = kind === 'sticker' && !animated ? STATIC_STICKER_LIMIT : KINDS[kind].limit;
  if (bytes.length > limit)
    throw new GraphError(
      131053,
      `${kind} file size ${bytes.length} bytes exceeds the maximum of ${limit} bytes for ${mime}.`,
    );
}

export function storedMedia(bytes: Buffer, mime_type: string, filename?: string): StoredMedia {
  return {
    mime_type,
    bytes,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    ...(filename ? { filename } : {}),
  };
}

// ---- Sample files --------------------------------------------------------------------------

const PNG_1X1 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const WEBP_1X1 = 'UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==';

function samplePdf(): Buffer {
  const stream = 'BT /F1 24 Tf 72 720 Td (Sample document) Tj ET';
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  out += offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

function oggCrc(data: Buffer): number {
  let crc = 0;
  for (const byte of data) {
    crc ^= byte << 24;
    for (let i = 0; i < 8; i++) crc = crc & 0x80000000 ? ((crc << 1) ^ 0x04c11db7) >>> 0 : (crc << 1) >>> 0;
  }
  return crc >>> 0;
}

/** One Ogg page carrying an OpusHead packet: what a WhatsApp voice note starts with. */
function sampleOpus(): Buffer {
  const head = Buffer.from([
    ...Buffer.from('OpusHead'),
    1,
    1,
    0x38,
    0x01,
    0x80,
    0xbb,
    0x00,
    0x00,
    0x00,
    0x00,
    0x00,
  ]);
  const page = Buffer.concat([
    Buffer.from('OggS'),
    Buffer.from([0, 0x02]), // version, first page of the stream
    Buffer.alloc(8), // granule position
    Buffer.from([0x53, 0x49, 0x4d, 0x31]), // stream serial
    Buffer.alloc(4), // page sequence
    Buffer.alloc(4), // checksum, filled below
    Buffer.from([1, head.length]),
    head,
  ]);
  page.writeUInt32LE(oggCrc(page), 22);
  return page;
}

function sampleMp3(): Buffer {
  const id3 = Buffer.from([0x49, 0x44, 0x33, 3, 0, 0, 0, 0, 0, 0]);
  const frame = Buffer.alloc(417);
  frame.set([0xff, 0xfb, 0x90, 0x64]);
  return Buffer.concat([id3, frame, frame]);
}

function sampleMp4(): Buffer {
  const box = (type: string, payload: Buffer) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(8 + payload.length, 0);
    head.write(type, 4, 'latin1');
    return Buffer.concat([head, payload]);
  };
  const ftyp = box(
    'ftyp',
    Buffer.concat([Buffer.from('isom'), Buffer.from([0, 0, 2, 0]), Buffer.from('isomiso2mp41')]),
  );
  return Buffer.concat([ftyp, box('free', Buffer.alloc(8)), box('mdat', Buffer.alloc(16))]);
}

export type Sample = { bytes: Buffer; mime_type: string; filename?: string };

export function sampleMedia(kind: MediaKind, voice = false): Sample {
  switch (kind) {
    case 'image':
      return { bytes: Buffer.from(PNG_1X1, 'base64'), mime_type: 'image/png' };
    case 'sticker':
      return { bytes: Buffer.from(WEBP_1X1, 'base64'), mime_type: 'image/webp' };
    case 'video':
      return { bytes: sampleMp4(), mime_type: 'video/mp4' };
    case 'audio':
      return voice
        ? { bytes: sampleOpus(), mime_type: 'audio/ogg; codecs=opus' }
        : { bytes: sampleMp3(), mime_type: 'audio/mpeg' };
    case 'document':
      return { bytes: samplePdf(), mime_type: 'application/pdf', filename: 'sample.pdf' };
    default: {
      const unreachable: never = kind;
      throw new Error(`unknown media kind ${String(unreachable)}`);
    }
  }
}
