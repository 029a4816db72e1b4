// Date filters in query strings: any text Date.parse reads, within the years 1 to 9999. JavaScript
// reads years up to 275760 (`99999-01-01`), which PostgreSQL refuses as a timestamp literal.
import { z } from 'zod';

export const DATE_MESSAGE = 'Enter a valid date/time.';
export const DATE_RANGE_MESSAGE = 'Enter a date/time between the years 1 and 9999.';

/** A date/time query parameter, answered as a Date. */
export const ZDateTimeParam = z
  .string()
  .refine((v) => !Number.isNaN(Date.parse(v)), { message: DATE_MESSAGE, abort: true })
  .refine(
    (v) => {
      const year = new Date(v).getUTCFullYear();
      return year >= 1 && year <= 9999;
    },
    { message: DATE_RANGE_MESSAGE },
  )
  .transform((v) => new Date(v));
