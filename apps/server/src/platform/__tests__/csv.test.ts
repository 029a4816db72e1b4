import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { csvCell, csvLine } from '../csv';
import { createTestRuntime, type TestRuntime } from '../../testing/test-runtime';
import { as, createBusiness, signUp } from '../../testing/identity';
import { parseCsv } from '../../testing/csv';

describe('csvCell', () => {
  it('guards formulas and quotes cells a semicolon-separated reader would split', () => {
    expect(csvCell('=1+2;3')).toBe(`"'=1+2;3"`);
    expect(csvCell('a;b')).toBe('"a;b"');
    expect(csvCell('a\tb')).toBe('"a\tb"');
    expect(csvCell('\tx')).toBe(`"'\tx"`);
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('line\r\nbreak')).toBe('"line\r\nbreak"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('+15550100')).toBe("'+15550100");
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell(-2)).toBe('-2');
    expect(csvCell(null)).toBe('');
    expect(csvLine(['a;b', 1, null])).toBe('"a;b",1,\r\n');
  });
});

describe('the CSV files Titan hands out', () => {
  let rt: TestRuntime;
  let app: FastifyInstance;
  beforeAll(async () => {
    rt = await createTestRuntime();
    app = rt.app!;
    await app.ready();
  });
  afterAll(() => rt.destroy());

  it('quote semicolons in the directory export, so a semicolon locale opens one cell, not a formula', async () => {
    const owner = await signUp(app, rt.mailer);
    const business = await createBusiness(app, owner, 'Csv Co');
    for (const name of ['=1+2;3', 'a;b'])
      await app.inject({
        method: 'POST',
        url: '/api/public/customers/',
        payload: { business_code: business.unique_code, name, email: `${name.length}@example.test` },
      });
    const res = await app.inject({
      method: 'GET',
      url: '/api/business/customer-directory/download/',
      headers: as(owner, business),
    });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain(`,"'=1+2;3",`);
    expect(res.body).toContain(',"a;b",');
    // Read back, each cell holds the text as typed (the formula guarded).
    const rows = parseCsv(res.body);
    expect(
      rows
        .slice(1)
        .map((r) => r[1])
        .sort(),
    ).toEqual(["'=1+2;3", 'a;b']);
  });
});
