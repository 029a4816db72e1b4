// Field messages people can act on, shared by every form and every 400 answer.
import { z } from 'zod';

z.config({
  customError: (issue) => {
    switch (issue.code) {
      case 'invalid_type':
        if (issue.input === undefined || issue.input === null) return 'This field is required.';
        if (issue.expected === 'number' || issue.expected === 'int') return 'A valid number is required.';
        if (issue.expected === 'boolean') return 'Must be true or false.';
        if (issue.expected === 'date') return 'Enter a valid date.';
        return `Expected ${issue.expected}.`;
      case 'too_small':
        if (issue.origin === 'string') {
          return Number(issue.minimum) <= 1
            ? 'This field may not be blank.'
            : `Ensure this field has at least ${issue.minimum} characters.`;
        }
        // positive() is "greater than 0": "at least 0" would be false of the 0 it refuses.
        if (issue.origin === 'number')
          return issue.inclusive === false
            ? `Ensure this value is greater than ${issue.minimum}.`
            : `Ensure this value is at least ${issue.minimum}.`;
        return undefined;
      case 'too_big':
        if (issue.origin === 'string')
          return `Ensure this field has no more than ${issue.maximum} characters.`;
        if (issue.origin === 'number')
          return issue.inclusive === false
            ? `Ensure this value is less than ${issue.maximum}.`
            : `Ensure this value is at most ${issue.maximum}.`;
        return undefined;
      case 'invalid_format':
        if (issue.format === 'email') return 'Enter a valid email address.';
        if (issue.format === 'url') return 'Enter a valid URL.';
        if (issue.format === 'datetime' || issue.format === 'date') return 'Enter a valid date.';
        return undefined;
      case 'invalid_value':
        return `Select a valid choice: ${issue.values.map(String).join(', ')}.`;
      case 'unrecognized_keys':
        return `Unknown field${issue.keys.length > 1 ? 's' : ''}: ${issue.keys.join(', ')}.`;
      default:
        return undefined;
    }
  },
});
