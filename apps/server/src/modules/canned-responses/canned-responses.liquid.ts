// The Liquid of canned responses: the library the email templates use (liquidjs), set up for
// short plain-text replies. A variable that is missing renders empty (a customer without a name);
// unknown filters, file tags (include, render, layout) and runaway templates are refused.
import { Liquid, Tag, type TagToken, type Template, type TopLevelToken } from 'liquidjs';

const RENDER_LIMIT_MS = 100;
const PARSE_LIMIT_CHARS = 20_000;
const MEMORY_LIMIT = 1_000_000;

class RefusedFileTag extends Tag {
  constructor(token: TagToken, remain: TopLevelToken[], liquid: Liquid) {
    super(token, remain, liquid);
    throw new Error(`tag '${token.name}' is not allowed in a canned response`);
  }

  *render(): Generator<unknown, void, unknown> {
    // Never reached: the constructor refuses the tag at parse time.
  }
}

const engine = new Liquid({
  strictVariables: false,
  strictFilters: true,
  ownPropertyOnly: true,
  lenientIf: true,
  templates: {},
  relativeReference: false,
  cache: false,
  parseLimit: PARSE_LIMIT_CHARS,
  renderLimit: RENDER_LIMIT_MS,
  memoryLimit: MEMORY_LIMIT,
});
for (const name of ['include', 'render', 'layout']) engine.registerTag(name, RefusedFileTag);

/** Parses a canned response's text; answers the reason it cannot be used, or null. */
export function liquidProblem(content: string): string | null {
  try {
    engine.parse(content);
    return null;
  } catch (err) {
    return err instanceof Error ? err.message.split('\n')[0]! : String(err);
  }
}

export type CannedVariables = {
  customer: { name: string; first_name: string; email: string; phone: string };
  agent: { name: string; first_name: string; email: string };
  business: { name: string };
};

export async function renderCanned(content: string, variables: CannedVariables): Promise<string> {
  const template: Template[] = engine.parse(content);
  return String(await engine.render(template, variables));
}
