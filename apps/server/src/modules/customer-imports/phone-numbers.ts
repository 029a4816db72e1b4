// Phone numbers of imported rows in E.164, by libphonenumber-js (min metadata, the package's
// default) — with a fast path for numbers already written internationally ("+44 7950 000123",
// "+447950000123"): libphonenumber builds a new RegExp for every pattern it tests, some twenty per
// number (the country's number types, twice), which made parsing half of an import's CPU. The fast
// path takes the same steps as libphonenumber's parse and isValid for such input — calling code,
// national number, the country among those sharing the calling code, then "the national number
// pattern and one number type match" — from the same metadata with each pattern compiled once, and
// hands everything else to libphonenumber: national prefixes, punctuation, letters, unknown codes.
// `phone-numbers.test.ts` checks both agree on every country's example numbers and mutations.
import { Metadata, type CountryCallingCode } from 'libphonenumber-js/core';
import metadataJson from 'libphonenumber-js/min/metadata';
import { parsePhoneNumberFromString } from 'libphonenumber-js';

/** The parts of libphonenumber's Metadata class the fast path reads (its typings show few). */
type NumberingPlanView = {
  nationalNumberPattern(): string;
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
  /** Null: the metadata has no number types, and the national number pattern alone decides. */
  types: { pattern: RegExp; lengths: number[] | undefined }[] | null;
  leadingDigits: RegExp | null;
};
type CallingCodePlans = {
  /** The main country's national prefix (for parsing): a number starting with it is not for us. */
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

// "+", then digits with single spaces or hyphens between them: nothing libphonenumber would read
// as an extension or strip differently.
const INTERNATIONAL = /^\+[1-9](?:[ -]?\d){6,16}$/;
const SEPARATORS = /[ -]/g;

/**
 * The number in E.164 (`+447950000123`), or null when it is not a valid number (with the
 * business's calling code, without `+`, as the region of a number written nationally).
 */
export function toE164(input: string, defaultCallingCode: string | undefined): string | null {
  if (INTERNATIONAL.test(input)) {
    const fast = fastE164(input.replace(SEPARATORS, ''));
    if (fast !== undefined) return fast;
  }
  const parsed = parsePhoneNumberFromString(
    input,
    defaultCallingCode ? { defaultCallingCode: defaultCallingCode as CountryCallingCode } : undefined,
  );
  return parsed?.isValid() ? parsed.number : null;
}

/** `+digits` in E.164, null if invalid, undefined when libphonenumber must decide. */
export function fastE164(number: string): string | null | undefined {
  // The calling code: the shortest of the first one to three digits that is one.
  for (let i = 2; i <= 4 && i <= number.length; i++) {
    const code = number.slice(1, i);
    if (metadata.getCountryCodesForCallingCode(code) === undefined) continue;
    const plans = plansFor(code);
    if (!plans) return undefined;
    const nationalNumber = number.slice(i);
    // A national prefix inside an international number: libphonenumber may strip it.
    if (plans.prefix?.test(nationalNumber)) return undefined;
    if (nationalNumber.length < 2 || nationalNumber.length > 17) return undefined;
    const country = countryPlan(plans, nationalNumber);
    return isValidIn(country ?? plans.main, nationalNumber) ? `+${code}${nationalNumber}` : null;
  }
  return undefined;
}
