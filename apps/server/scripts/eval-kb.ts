// `npm run eval:kb`: the knowledge base's held-out evaluation (src/testing/kb-eval.ts) on the shipped
// sample help centre and question set (eval/kb/), full text alone. Prints the misses, recall@5, MRR
// and handoff precision; exits 1 when recall@5 is under 0.9.
import { formatKbEval, runKbEval } from '../src/testing/kb-eval';

const report = await runKbEval();
console.log(formatKbEval(report));
if (report.recallAt5 < 0.9) {
  console.error(`recall@5 ${report.recallAt5} is under 0.9`);
  process.exitCode = 1;
}
