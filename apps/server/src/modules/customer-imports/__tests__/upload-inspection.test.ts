// The upload's checks run on the file as it streams by, chunk by chunk: whatever way the chunks
// cut the bytes, the answer is the one the whole file gives.
import { describe, expect, it } from 'vitest';
import iconv from 'iconv-lite';
import { FileInspector, HEAD_BYTES } from '../csv-reading';

/** The inspector's view of `bytes` fed in chunks cut at `cuts` (byte offsets). */
function inspect(bytes: Buffer, cuts: number[], expected?: string) {
  const file = new FileInspector(expected);
  let at = 0;
  for (const cut of [...cuts, bytes.length]) {
    file.push(bytes.subarray(at, cut));
    at = cut;
  }
  file.end();
  return file;
}

describe('an upload checked as it streams', () => {
  it('finds a multi-byte UTF-8 character valid whichever byte a chunk ends on', () => {
    for (const char of ['é', '€', '😀']) {
      const bytes = Buffer.from(`name,email\nJos${char},jose@example.com\n`);
      const start = bytes.indexOf(Buffer.from(char));
      for (let cut = start; cut <= start + Buffer.byteLength(char); cut++) {
        // One chunk boundary inside the character, and with single-byte chunks around it too.
        expect(inspect(bytes, [cut]).decodesIn('utf-8'), `${char} cut at ${cut}`).toBe(true);
        expect(inspect(bytes, [cut - 1, cut, cut + 1]).decodesIn('utf-8')).toBe(true);
      }
    }
  });

  it('catches an invalid UTF-8 sequence megabytes into the file, and one the file ends in', () => {
    const line = Buffer.from('Zoë Smith,zoe@example.com\n');
    const lines = Buffer.concat(Array.from({ length: 100_000 }, () => line));
    const cuts = Array.from({ length: Math.floor(lines.length / 65_536) }, (_, i) => (i + 1) * 65_536);
    expect(inspect(lines, cuts).decodesIn('utf-8')).toBe(true);
    // A lone continuation byte, an overlong form and a surrogate, each 2.5 MB in.
    for (const bad of [[0x80], [0xc0, 0xaf], [0xed, 0xa0, 0x80]]) {
      const bytes = Buffer.concat([lines, Buffer.from(bad), line]);
      expect(inspect(bytes, cuts).decodesIn('utf-8'), bad.join(' ')).toBe(false);
      // Cut right inside the bad sequence as well.
      expect(inspect(bytes, [...cuts, lines.length + 1]).decodesIn('utf-8')).toBe(false);
    }
    // A character cut short by the end of the file.
    expect(inspect(Buffer.concat([lines, Buffer.from([0xe2, 0x82])]), cuts).decodesIn('utf-8')).toBe(false);
  });

  it('spots a byte Windows-1252 leaves undefined in any chunk, and keeps the first 64 KiB', () => {
    const text = iconv.encode(`name,email\n${'Françoise,f@example.com\n'.repeat(10_000)}`, 'windows-1252');
    const cuts = [1, 2, 70_000, 150_000];
    const clean = inspect(text, cuts);
    expect(clean.decodesIn('utf-8')).toBe(false);
    expect(clean.decodesIn('windows-1252')).toBe(true);
    expect(clean.size).toBe(text.length);
    expect(clean.head().equals(text.subarray(0, HEAD_BYTES))).toBe(true);
    const dirty = inspect(Buffer.concat([text, Buffer.from([0x9d])]), cuts);
    expect(dirty.decodesIn('windows-1252')).toBe(false);
  });

  it('checks UTF-16 when the BOM says so, and an encoding chosen before the file', () => {
    const utf16 = Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      Buffer.from('name,email\nZoë,z@example.com\n', 'utf16le'),
    ]);
    // The BOM itself cut over two chunks, and a code unit cut in half.
    expect(inspect(utf16, [1, 7]).decodesIn('utf-16le')).toBe(true);
    const lone = Buffer.concat([utf16, Buffer.from([0x00, 0xd8, 0x41, 0x00])]);
    expect(inspect(lone, [1, 7]).decodesIn('utf-16le')).toBe(false);
    const mac = iconv.encode('name,email\nZoë,z@example.com\n', 'macintosh');
    expect(inspect(mac, [13], 'macintosh').decodesIn('macintosh')).toBe(true);
    // Not chosen before the file: left for a second read of the stored file.
    expect(inspect(mac, [13]).decodesIn('macintosh')).toBeUndefined();
  });
});
