// `/v1/embeddings`, deterministic: a text's vector is its words hashed into EMBEDDING_DIMENSIONS
// buckets (feature hashing, FNV-1a), each word lower-cased and lightly stemmed, then scaled to
// length 1 — so texts sharing words point the same way (cosine similarity), the same text always
// gets the same vector, and tests can reason about what retrieval finds without a real model.

export const DEFAULT_SIM_EMBEDDING_MODEL = 'sim-embed';
export const EMBEDDING_DIMENSIONS = 256;

const STOP = new Set(
  'a an and are as at be by can do does for from has have how i if in is it its my of on or our so that the their them there this to was we what when where which who why will with you your'.split(
    ' ',
  ),
);

function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** A word's rough stem: plurals and common endings off, so "refunds" meets "refund". */
function stem(word: string): string {
  for (const end of ['ing', 'ed', 'es', 's']) {
    if (word.length > end.length + 2 && word.endsWith(end)) return word.slice(0, -end.length);
  }
  return word;
}

export function words(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => !STOP.has(w)).map(stem);
}

export function embedText(text: string): number[] {
  const vector = new Array<number>(EMBEDDING_DIMENSIONS).fill(0);
  for (const word of words(text)) {
    const h = fnv1a(word);
    // A second hash bit decides the sign, so unrelated words cancel out rather than pile up.
    vector[h % EMBEDDING_DIMENSIONS]! += h & 0x80000000 ? -1 : 1;
  }
  const norm = Math.hypot(...vector);
  if (norm === 0) {
    vector[0] = 1;
    return vector;
  }
  return vector.map((v) => Math.round((v / norm) * 1e6) / 1e6);
}
