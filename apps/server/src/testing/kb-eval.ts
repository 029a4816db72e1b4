// The knowledge base's held-out evaluation (issue 33; `npm run eval:kb`, and kb-eval.test.ts in CI):
// a sample help centre (eval/kb/help-centre.json) is written into a fresh business through the API,
// then every question of eval/kb/questions.json is searched the way the AI first responder searches
// (retrievalQuery of the customer's words, published articles only) and scored:
// - recall@5: the share of answerable questions with an expected article among the first 5 hits;
// - MRR: the mean of 1/rank of the first expected article (0 when it is not in the first 10);
// - handoff precision: of the questions the responder hands to a person before any model is asked
//   (the customer asks for a person, a human-only topic, nothing retrieved), the share a person
//   should indeed take; its recall beside it.
// Full text alone (no embedding model), so the figures need no model server.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TKbSearchHit } from '@titan/contracts';
import { asksForHuman, humanOnlyTopic } from '../modules/ai';
import { retrievalQuery } from '../modules/knowledge';
import { serverRoot } from '../paths';
import { as, createBusiness, signUp } from './identity';
import { createTestRuntime } from './test-runtime';

export type KbEvalSet = {
  helpCentre: {
    business: string;
    human_only_topics: string[];
    categories: string[];
    articles: { slug: string; category: string; title: string; body: string }[];
  };
  questions: { q: string; expected?: string[]; handoff?: boolean }[];
};

export type KbEvalQuestion = {
  q: string;
  expected: string[];
  /** Slugs of the first 5 hits. */
  top: string[];
  /** 1-based rank of the first expected article in the first 10, or null. */
  rank: number | null;
  handoff: { expected: boolean; decided: boolean; why: string | null };
};

export type KbEvalReport = {
  articles: number;
  answerable: number;
  recallAt5: number;
  mrr: number;
  handoffPrecision: number;
  handoffRecall: number;
  questions: KbEvalQuestion[];
  durationMs: number;
};

export const KB_EVAL_DIR = join(serverRoot, 'eval', 'kb');

export function loadKbEvalSet(dir = KB_EVAL_DIR): KbEvalSet {
  const read = (name: string) => JSON.parse(readFileSync(join(dir, name), 'utf8')) as Record<string, unknown>;
  return {
    helpCentre: read('help-centre.json') as KbEvalSet['helpCentre'],
    questions: (read('questions.json') as { questions: KbEvalSet['questions'] }).questions,
  };
}

const round = (n: number) => Math.round(n * 1000) / 1000;

export async function runKbEval(set: KbEvalSet = loadKbEvalSet()): Promise<KbEvalReport> {
  const started = performance.now();
  const rt = await createTestRuntime();
  try {
    const app = rt.app!;
    await app.ready();
    const owner = await signUp(app, rt.mailer);
    const business = await createBusiness(app, owner, set.helpCentre.business);
    const headers = as(owner, business);
    const call = async (method: 'GET' | 'POST', url: string, payload?: object) => {
      const res = await app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
      if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
      return res.json().result as Record<string, unknown>;
    };
    const categories = new Map<string, number>();
    for (const [position, name] of set.helpCentre.categories.entries())
      categories.set(name, (await call('POST', '/api/kb/categories/', { name, position })).id as number);
    const slugOf = new Map<number, string>();
    for (const a of set.helpCentre.articles) {
      const created = await call('POST', '/api/kb/articles/', {
        title: a.title,
        body_markdown: a.body,
        category_id: categories.get(a.category),
        status: 'published',
      });
      slugOf.set(created.id as number, a.slug);
    }

    const questions: KbEvalQuestion[] = [];
    for (const item of set.questions) {
      const q = retrievalQuery(item.q);
      const hits = q
        ? ((await call('GET', `/api/kb/search/?q=${encodeURIComponent(q)}&limit=10`))
            .results as TKbSearchHit[])
        : [];
      const slugs = hits.map((h) => slugOf.get(h.article_id) ?? `#${h.article_id}`);
      const expected = item.expected ?? [];
      const index = slugs.findIndex((s) => expected.includes(s));
      // The responder's decisions before any model reads anything (modules/ai/ai.responder.ts).
      const why = asksForHuman(item.q)
        ? 'customer_asked'
        : humanOnlyTopic(item.q, set.helpCentre.human_only_topics)
          ? 'human_only_topic'
          : hits.length === 0
            ? 'no_sources'
            : null;
      questions.push({
        q: item.q,
        expected,
        top: slugs.slice(0, 5),
        rank: index >= 0 ? index + 1 : null,
        handoff: { expected: item.handoff === true, decided: why !== null, why },
      });
    }
    const answerable = questions.filter((x) => x.expected.length > 0);
    const decided = questions.filter((x) => x.handoff.decided);
    const shouldHandOff = questions.filter((x) => x.handoff.expected);
    const handedRight = decided.filter((x) => x.handoff.expected).length;
    return {
      articles: set.helpCentre.articles.length,
      answerable: answerable.length,
      recallAt5: round(answerable.filter((x) => x.rank !== null && x.rank <= 5).length / answerable.length),
      mrr: round(answerable.reduce((sum, x) => sum + (x.rank ? 1 / x.rank : 0), 0) / answerable.length),
      handoffPrecision: round(decided.length ? handedRight / decided.length : 1),
      handoffRecall: round(shouldHandOff.length ? handedRight / shouldHandOff.length : 1),
      questions,
      durationMs: Math.round(performance.now() - started),
    };
  } finally {
    await rt.destroy();
  }
}

/** The report as `npm run eval:kb` prints it: the misses first, then the figures. */
export function formatKbEval(report: KbEvalReport): string {
  const lines: string[] = [];
  for (const x of report.questions) {
    if (x.expected.length && (x.rank === null || x.rank > 5))
      lines.push(
        `miss      ${x.q}  (expected ${x.expected.join(' | ')}; got ${x.top.join(', ') || 'nothing'})`,
      );
    else if (x.expected.length && x.rank! > 1) lines.push(`rank ${x.rank}    ${x.q}`);
    if (x.handoff.decided !== x.handoff.expected)
      lines.push(
        `handoff   ${x.q}  (${x.handoff.decided ? `handed off: ${x.handoff.why}` : `answered from ${x.top[0]}`}; expected ${x.handoff.expected ? 'a handoff' : 'an answer'})`,
      );
  }
  lines.push(
    '',
    `knowledge-base evaluation: ${report.articles} articles, ${report.answerable} answerable questions, ${report.questions.length - report.answerable} for a person (full text)`,
    `recall@5           ${report.recallAt5.toFixed(3)}`,
    `MRR                ${report.mrr.toFixed(3)}`,
    `handoff precision  ${report.handoffPrecision.toFixed(3)}   (recall ${report.handoffRecall.toFixed(3)})`,
    `took ${(report.durationMs / 1000).toFixed(1)} s`,
  );
  return lines.join('\n');
}
