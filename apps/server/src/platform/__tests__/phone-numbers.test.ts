// The import's phone fast path answers exactly what libphonenumber-js answers: every country's
// example mobile number, written internationally, and mutations of it (each last digit, shorter,
// longer, random national numbers, a national prefix repeated, spaces, hyphens, dots, brackets),
// for both valid and invalid numbers.
import { describe, expect, it } from 'vitest';
import { getCountries, getCountryCallingCode, parsePhoneNumberFromString } from 'libphonenumber-js';
import examples from 'libphonenumber-js/mobile/examples';
import { fastE164, toE164 } from '../phone-numbers';

const SEPARATORS = /[ ().-]/g;

const reference = (input: string, callingCode?: string) => {
  const parsed = parsePhoneNumberFromString(
    input,
    callingCode ? { defaultCallingCode: callingCode } : undefined,
  );
  return parsed?.isValid() ? parsed.number : null;
};

/** A small seeded generator, so a failure names an input that fails again. */
function digits(seed: number) {
  let x = seed;
  return (n: number) => {
    let out = '';
    for (let i = 0; i < n; i++) {
      x = (Math.imul(x, 1103515245) + 12345) >>> 0;
      out += String((x >>> 16) % 10);
    }
    return out;
  };
}

function inputs(): string[] {
  const all: string[] = [];
  const random = digits(7);
  for (const country of getCountries()) {
    const code = getCountryCallingCode(country);
    const example = (examples as Record<string, string>)[country];
    const national = example ?? random(9);
    const variants = [
      national,
      national.slice(0, -1),
      national.slice(0, -2),
      `${national}1`,
      `${national}12`,
    ];
    for (let d = 0; d < 10; d++) variants.push(`${national.slice(0, -1)}${d}`);
    for (let len = 4; len <= 14; len++) variants.push(random(len), `${national.slice(0, 2)}${random(len)}`);
    for (const v of variants) {
      all.push(`+${code}${v}`, `+${code} ${v.slice(0, 3)} ${v.slice(3)}`, `+${code}-${v}`);
      // A national prefix repeated after the calling code, bracketed or not ("+44 (0)7…").
      for (const prefix of ['0', '1', '8', '9', '00', '01'])
        all.push(
          `+${code} (${prefix})${v}`,
          `+${code}${prefix}${v}`,
          `+${code} (${prefix}) ${v.slice(0, 2)}.${v.slice(2)}`,
        );
    }
  }
  return all;
}

describe('phone numbers: the fast path agrees with libphonenumber-js', () => {
  const cases = inputs();

  it('answers like libphonenumber for every country, valid or not', () => {
    let decided = 0;
    let valid = 0;
    const wrong: string[] = [];
    for (const input of cases) {
      const expected = reference(input);
      const fast = fastE164(input.replace(SEPARATORS, ''));
      if (fast !== undefined) {
        decided++;
        if (fast) valid++;
        if (fast !== expected) wrong.push(`${input}: fast ${fast}, libphonenumber ${expected}`);
      }
      const got = toE164(input, '44');
      if (got !== reference(input, '44')) wrong.push(`${input}: toE164 ${got}, libphonenumber ${expected}`);
    }
    expect(wrong).toEqual([]);
    // The fast path decides most international input itself, valid and invalid numbers alike.
    expect(decided).toBeGreaterThan(cases.length * 0.6);
    expect(valid).toBeGreaterThan(1000);
    expect(decided - valid).toBeGreaterThan(1000);
  });

  it('leaves numbers written nationally, extensions and non-geographic codes to libphonenumber', () => {
    expect(fastE164('+4407950000123')).toBe('+447950000123');
    expect(fastE164('+800123456789')).toBeUndefined();
    for (const [input, region] of [
      ['07950 000123', '44'],
      ['+44 (0)7950 000 123', '44'],
      ['(020) 7946 0018', '44'],
      ['+44 7950 000123 ext. 12', '44'],
      ['202-555-0143', '1'],
      ['+1 (202) 555-0143', undefined],
      ['＋44 7950 000123', undefined],
      ['7950000123', undefined],
    ] as const)
      expect(toE164(input, region)).toBe(reference(input, region));
    expect(toE164('+44 7950 000123', undefined)).toBe('+447950000123');
    expect(toE164('+44 (0)7950 000 123', '44')).toBe('+447950000123');
    expect(toE164('+44 12', '44')).toBeNull();
  });
});
