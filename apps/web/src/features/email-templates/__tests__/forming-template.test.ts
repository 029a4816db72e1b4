import { describe, expect, it } from 'vitest';

import { formingTemplate } from '../utils/forming-template';

describe('formingTemplate', () => {
  it('reads the fields of an unfinished answer, escapes undone', () => {
    expect(formingTemplate('{"name":"Spring","subject":"Hi \\"you\\"\\n')).toEqual({
      name: 'Spring',
      subject: 'Hi "you"\n',
    });
  });

  it('reads an answer wrapped in a code fence', () => {
    expect(formingTemplate('```json\n{"subject":"Sale"}\n```')).toEqual({ subject: 'Sale' });
  });

  it('gives null for prose or nothing yet, so the raw text is shown', () => {
    expect(formingTemplate('')).toBeNull();
    expect(formingTemplate('Sure! Here is {"subject": "x"}')).toBeNull();
    expect(formingTemplate('[1, 2')).toBeNull();
  });
});
