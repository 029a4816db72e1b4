// `npm run eval:kb` in CI: the shipped sample help centre and its held-out questions (eval/kb/),
// searched as the AI first responder searches, full text alone: recall@5 at least 0.9, and the
// per-question outcomes the figures are made of.
import { describe, expect, it } from 'vitest';
import { formatKbEval, loadKbEvalSet, runKbEval } from '../../../testing/kb-eval';

describe('the knowledge-base evaluation', () => {
  it('finds the expected article in the first 5 for at least 90% of the questions, with full text alone', async () => {
    const set = loadKbEvalSet();
    const report = await runKbEval(set);
    expect(report.articles).toBe(set.helpCentre.articles.length);
    expect(report.questions).toHaveLength(set.questions.length);
    expect(report.recallAt5, formatKbEval(report)).toBeGreaterThanOrEqual(0.9);
    expect(report.mrr).toBeGreaterThan(0.6);
    expect(report.handoffPrecision).toBeGreaterThanOrEqual(0.8);
    const byQuestion = new Map(report.questions.map((x) => [x.q, x]));
    expect(byQuestion.get('I forgot my password')).toMatchObject({ rank: 1, top: ['password-reset'] });
    expect(byQuestion.get('Can I talk to a human please?')!.handoff).toEqual({
      expected: true,
      decided: true,
      why: 'customer_asked',
    });
    expect(byQuestion.get('My bank opened a chargeback for this payment')!.handoff.why).toBe(
      'human_only_topic',
    );
    expect(byQuestion.get('Are you hiring?')!.handoff.why).toBe('no_sources');
    // The figures are the questions' outcomes.
    const answerable = report.questions.filter((x) => x.expected.length > 0);
    const found = answerable.filter((x) => x.rank !== null && x.rank <= 5).length;
    expect(report.recallAt5).toBeCloseTo(found / answerable.length, 3);
    expect(formatKbEval(report)).toContain(`recall@5           ${report.recallAt5.toFixed(3)}`);
  }, 120_000);
});
