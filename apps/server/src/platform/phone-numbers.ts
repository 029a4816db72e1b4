// Customers' phone numbers in E.164, the one form every write stores (API, directory edit, widget,
// QR forms, imports) and inbound texts match on, by libphonenumber-js (min metadata, the package's
// default) — with a fast path for numbers already written internationally ("+44 7950 000123",
// "+447950000123"): libphonenumber builds a new RegExp for every pattern it tests, some twenty per
// number (the country's number types, twice), which made parsing half of an import's CPU. The fast
// path takes the same steps as libphonenumber's parse and isValid for such input — calling code,
// national number (a repeated national prefix dropped, "+44 (0)7…"), the country among those
// sharing the calling code, then "the national number pattern and one number type match" — from
// the same metadata with each pattern compiled once, and hands everything else to libphonenumber:
// numbers written nationally, carrier codes, letters, extensions, non-geographic calling codes.
// `phone-numbers.test.ts` checks both agree on every country's example numbers and mutations.
import { Metadata, type CountryCallingCode } from 'libphonenumber-js/core';
import metadataJson from 'libphonenumber-js/min/metadata';
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { PHONE_ERRORS } from '@titan/contracts';
import { AppError } from './errors';

/** The parts of libphonenumber's Metadata class the fast path reads (its typings show few). */
type NumberingPlanView = {
  nationalNumberPattern(): string;
  possibleLengths(): number[] | undefined;
  nationalPrefixForParsing(): string | undefined;
  leadingDigits(): string | undefined;
  hasTypes(): boolean;
  type(t: string): { pattern(): string; possibleLengths(): number[] | undefined } | undefined;
};
type MetadataView = {
  selectNumberingPlan(codeOrCountry: string): void;
  numberingPlan: NumberingPlanView;
  getCountryCodesForCallingCode(code: string): string[] | undefined;
  isNonGeographicCallingCode(code: string): boolean;
};

// getNumberType's order: FIXED_LINE, then these (any match makes the number valid).
const TYPES = [
  'FIXED_LINE',
  'MOBILE',
  'PREMIUM_RATE',
  'TOLL_FREE',
  'SHARED_COST',
  'VOIP',
  'PERSONAL_NUMBER',
  'PAGER',
  'UAN',
  'VOICEMAIL',
];

type Plan = {
  nationalNumber: RegExp;
  possibleLengths: number[] | undefined;
  /** Null: the metadata has no number types, and the national number pattern alone decides. */
  types: { pattern: RegExp; lengths: number[] | undefined }[] | null;
  leadingDigits: RegExp | null;
};
type CallingCodePlans = {
  /** The main country's national prefix (for parsing), which a number may repeat: "+44 (0)7…". */
  prefix: RegExp | null;
  main: Plan;
  countries: Plan[];
};

const whole = (pattern: string) => new RegExp(`^(?:${pattern})$`);

function planOf(metadata: MetadataView): Plan {
  const p = metadata.numberingPlan;
  const leading = p.leadingDigits();
  return {
    nationalNumber: whole(p.nationalNumberPattern()),
    possibleLengths: p.possibleLengths(),
    types: p.hasTypes()
      ? TYPES.flatMap((t) => {
          const type = p.type(t);
          const pattern = type?.pattern();
          return type && pattern ? [{ pattern: whole(pattern), lengths: type.possibleLengths() }] : [];
        })
      : null,
    leadingDigits: leading ? new RegExp(`^(?:${leading})`) : null,
  };
}

const metadata = new Metadata(metadataJson) as unknown as MetadataView;
const byCallingCode = new Map<string, CallingCodePlans | null>();

/** The compiled plans of a calling code; null when it is unknown or not geographic. */
function plansFor(code: string): CallingCodePlans | null {
  let plans = byCallingCode.get(code);
  if (plans !== undefined) return plans;
  const countries = metadata.getCountryCodesForCallingCode(code);
  if (!countries?.length || countries.includes('001') || metadata.isNonGeographicCallingCode(code))
    plans = null;
  else {
    metadata.selectNumberingPlan(code);
    const prefix = metadata.numberingPlan.nationalPrefixForParsing();
    const main = planOf(metadata);
    plans = {
      prefix: prefix ? new RegExp(`^(?:${prefix})`) : null,
      main,
      countries: countries.map((country) => {
        metadata.selectNumberingPlan(country);
        return planOf(metadata);
      }),
    };
  }
  byCallingCode.set(code, plans);
  return plans;
}

/** getNumberType(…) !== undefined, or without types the national number pattern. */
function isValidIn(plan: Plan, nationalNumber: string): boolean {
  if (!plan.nationalNumber.test(nationalNumber)) return false;
  if (!plan.types) return true;
  return plan.types.some(
    (t) => (!t.lengths || t.lengths.includes(nationalNumber.length)) && t.pattern.test(nationalNumber),
  );
}

/** getCountryByCallingCode: the only country, else the first whose leading digits or types fit. */
function countryPlan(plans: CallingCodePlans, nationalNumber: string): Plan | undefined {
  if (plans.countries.length === 1) return plans.countries[0];
  return plans.countries.find((plan) =>
    plan.leadingDigits ? plan.leadingDigits.test(nationalNumber) : typeOf(plan, nationalNumber),
  );
}

/** getNumberType's answer is a type (what isValid asks) — for a plan with types. */
const typeOf = (plan: Plan, nationalNumber: string) => plan.types !== null && isValidIn(plan, nationalNumber);

// "+", then digits with spaces, hyphens, dots or brackets between them ("+44 (0)7950 000 123"):
// libphonenumber drops those, and finds no extension in such input.
const INTERNATIONAL = /^\+[1-9][\d ().-]{5,40}\d$/;
const SEPARATORS = /[ ().-]/g;

/**
 * The number in E.164 (`+447950000123`), or null when it is not a valid number. A number written
 * without `+` is read in the business's dial code (`+44` or `44`), and a leading `00` (the
 * international prefix of most of the world) as `+`.
 */
export function toE164(input: string, dialCode: string | null | undefined): string | null {
  const text = input.trim().replace(/^00(?=[1-9])/, '+');
  if (INTERNATIONAL.test(text)) {
    const fast = fastE164(text.replace(SEPARATORS, ''));
    if (fast !== undefined) return fast;
  }
  const calling = dialCode?.trim().replace(/^\+/, '');
  try {
    const parsed = parsePhoneNumberFromString(
      text,
      calling ? { defaultCallingCode: calling as CountryCallingCode } : undefined,
    );
    return parsed?.isValid() ? parsed.number : null;
  } catch {
    // A dial code no country uses.
    return null;
  }
}

/**
 * A phone as stored, or null for none (`null`, blank); a number that is not one is a 400 on
 * `field`, saying to add the country code when that is what is missing.
 */
export function phoneForStorage(
  input: string | null | undefined,
  dialCode: string | null | undefined,
  field = 'phone',
): string | null {
  if (input === null || input === undefined || input.trim() === '') return null;
  const e164 = toE164(input, dialCode);
  if (e164) return e164;
  // Digits without a country code, where the business has no dial code to read them in.
  const national = /^[\d\s().-]+$/.test(input.trim()) && !/^\s*00/.test(input);
  const message = national && !dialCode ? PHONE_ERRORS.needsCountry : PHONE_ERRORS.invalid;
  throw AppError.fields({ [field]: [message] }, message);
}

/** checkNumberLength says TOO_SHORT or INVALID_LENGTH (the lengths are sorted). */
function impossibleLength(lengths: number[], length: number): boolean {
  if (lengths[0]! > length) return true;
  if (lengths[lengths.length - 1]! < length) return false;
  return !lengths.includes(length);
}

/**
 * The national number after the calling code, as extractNationalNumber reads it: a national
 * prefix is dropped unless the number only fits the country with it, or is too short without it.
 * Undefined for prefixes with captured groups (carrier codes, transform rules): libphonenumber's.
 */
function withoutNationalPrefix(plans: CallingCodePlans, number: string): string | undefined {
  const match = plans.prefix?.exec(number);
  if (!match?.[0]) return number;
  if (match.length > 1 && match[match.length - 1]) return undefined;
  const after = number.slice(match[0].length);
  if (plans.main.nationalNumber.test(number) && !plans.main.nationalNumber.test(after)) return number;
  if (plans.main.possibleLengths) {
    const lengths = (countryPlan(plans, after) ?? plans.main).possibleLengths;
    if (lengths && impossibleLength(lengths, after.length)) return number;
  }
  return after;
}

/** `+digits` in E.164, null if invalid, undefined when libphonenumber must decide. */
export function fastE164(number: string): string | null | undefined {
  // The calling code: the shortest of the first one to three digits that is one.
  for (let i = 2; i <= 4 && i <= number.length; i++) {
    const code = number.slice(1, i);
    if (metadata.getCountryCodesForCallingCode(code) === undefined) continue;
    const plans = plansFor(code);
    if (!plans) return undefined;
    const nationalNumber = withoutNationalPrefix(plans, number.slice(i));
    if (nationalNumber === undefined || nationalNumber.length < 2 || nationalNumber.length > 17)
      return undefined;
    const country = countryPlan(plans, nationalNumber);
    return isValidIn(country ?? plans.main, nationalNumber) ? `+${code}${nationalNumber}` : null;
  }
  return undefined;
}
