// A retried browser test (CI only, see vitest.config.ts) starts from the problems its file had before
// the failed attempt: what that attempt's pages reported (a console error from the timeout that
// failed it) is dropped, so the retry is judged on its own run. Problems reported before the test
// began (a `beforeAll` page load, an earlier test) are kept, and still fail the assertion that reads them.
import { beforeEach } from 'vitest';

import { watchedProblemLists } from './browser';

const before = new Map<string[], number>();

beforeEach(({ task }) => {
  if ((task.result?.retryCount ?? 0) === 0) {
    before.clear();
    for (const list of watchedProblemLists) before.set(list, list.length);
    return;
  }
  for (const list of watchedProblemLists) list.length = before.get(list) ?? 0;
});
