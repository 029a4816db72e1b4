// Field messages people can act on, shared by every form and every 400 answer. Every issue code
// gets one of ours: zod's own texts ("Invalid discriminator value…", "Invalid input") name
// validator internals and must never reach a user.
import { z } from 'zod';

/** The message for an issue no more precise sentence fits. */
export const INVALID_VALUE_MESSAGE = 'Enter a valid value.';

const listed = (values: readonly unknown[]) =>
  values
    .filter((v) => v !== undefined && v !== null)
    .map(String)
    .join(', ');

z.config({
  customError: (issue) => {
    switch (issue.code) {
      case 'invalid_type':
        if (issue.input === undefined || issue.input === null) return 'This field is required.';
        if (issue.expected === 'number' || issue.expected === 'int') return 'A valid number is required.';
        if (issue.expected === 'boolean') return 'Must be true or false.';
        if (issue.expected === 'date') return 'Enter a valid date.';
        if (issue.expected === 'string') return 'Not a valid string.';
        if (issue.expected === 'array') return 'Expected a list of items.';
        if (issue.expected === 'object' || issue.expected === 'record' || issue.expected === 'map')
          return 'Expected a dictionary of items.';
        return INVALID_VALUE_MESSAGE;
      case 'too_small':
        if (issue.origin === 'string') {
          return Number(issue.minimum) <= 1
            ? 'This field may not be blank.'
            : `Ensure this field has at least ${issue.minimum} characters.`;
        }
        // positive() is "greater than 0": "at least 0" would be false of the 0 it refuses.
        if (issue.origin === 'number' || issue.origin === 'int' || issue.origin === 'bigint')
          return issue.inclusive === false
            ? `Ensure this value is greater than ${issue.minimum}.`
            : `Ensure this value is at least ${issue.minimum}.`;
        if (issue.origin === 'array' || issue.origin === 'set')
          return Number(issue.minimum) <= 1
            ? 'This list may not be empty.'
            : `Ensure this field has at least ${issue.minimum} elements.`;
        return INVALID_VALUE_MESSAGE;
      case 'too_big':
        if (issue.origin === 'string')
          return `Ensure this field has no more than ${issue.maximum} characters.`;
        if (issue.origin === 'number' || issue.origin === 'int' || issue.origin === 'bigint')
          return issue.inclusive === false
            ? `Ensure this value is less than ${issue.maximum}.`
            : `Ensure this value is at most ${issue.maximum}.`;
        if (issue.origin === 'array' || issue.origin === 'set')
          return `Ensure this field has no more than ${issue.maximum} elements.`;
        if (issue.origin === 'file') return 'The file is too large.';
        return INVALID_VALUE_MESSAGE;
      case 'invalid_format':
        if (issue.format === 'email') return 'Enter a valid email address.';
        if (issue.format === 'url') return 'Enter a valid URL.';
        if (issue.format === 'datetime' || issue.format === 'date') return 'Enter a valid date.';
        if (issue.format === 'time') return 'Enter a valid time.';
        return INVALID_VALUE_MESSAGE;
      case 'not_multiple_of':
        return `Ensure this value is a multiple of ${String(issue.divisor)}.`;
      case 'invalid_value':
        return `Select a valid choice: ${listed(issue.values)}.`;
      case 'invalid_union':
        // A discriminated union names its choices; other unions cannot say which branch was meant.
        if ('discriminator' in issue && Array.isArray(issue.options))
          return `Select a valid choice: ${listed(issue.options as unknown[])}.`;
        return INVALID_VALUE_MESSAGE;
      case 'unrecognized_keys':
        return `Unknown field${issue.keys.length > 1 ? 's' : ''}: ${issue.keys.join(', ')}.`;
      case 'invalid_key':
        return 'Enter a valid field name.';
      case 'invalid_element':
      case 'custom':
        return INVALID_VALUE_MESSAGE;
      default: {
        const unhandled: never = issue;
        void unhandled;
        return INVALID_VALUE_MESSAGE;
      }
    }
  },
});
