// ESLint rule for the server: a module (apps/server/src/modules/<name>/) is entered only through its
// public face, `modules/<name>/index.ts`; `channels/`, `platform/` and `db/` never import `modules/`.
// Specifiers are resolved against the importing file, whatever its depth; tests and test helpers may
// reach inside (they set up and inspect state the way no production caller should).
import path from 'node:path';

const SRC = path.join('apps', 'server', 'src');

/** Where a file lies: its top folder under src/ and, inside modules/, the module's name and rest. */
export function placeOf(file) {
  const normalized = path.normalize(file);
  const marker = `${path.sep}${SRC}${path.sep}`;
  const at = normalized.lastIndexOf(marker);
  if (at === -1) return null;
  const root = normalized.slice(0, at + marker.length);
  const parts = normalized.slice(root.length).split(path.sep);
  if (parts[0] !== 'modules') return { root, area: parts.length > 1 ? parts[0] : '', module: null, rest: [] };
  return { root, area: 'modules', module: parts[1] ?? null, rest: parts.slice(2) };
}

const isFace = (rest) => rest.length === 0 || (rest.length === 1 && /^index(\.[cm]?[jt]s)?$/.test(rest[0]));
export const isTestFile = (file) => /[\\/](__tests__|testing)[\\/]/.test(file);

/** Why `from` may not import `specifier`, or null when it may. */
export function faceProblem(from, specifier) {
  if (!specifier.startsWith('.')) return null;
  const own = placeOf(from);
  if (!own) return null;
  const target = placeOf(path.resolve(path.dirname(from), specifier));
  if (!target || target.area !== 'modules' || !target.module) return null;
  if (own.area === 'modules' && own.module === target.module) return null;
  if (own.area === 'channels' || own.area === 'platform' || own.area === 'db') {
    return { messageId: 'lowerLayer', data: { from: own.area, to: target.module } };
  }
  if (isFace(target.rest)) return null;
  return {
    messageId: 'privateFile',
    data: { from: own.module ?? own.area ?? 'src', to: target.module, file: target.rest.join('/') },
  };
}

export const moduleFaces = {
  meta: {
    type: 'problem',
    docs: {
      description: 'Enter a server module only through its index.ts; lower layers never import modules.',
    },
    messages: {
      privateFile:
        "'{{from}}' imports '{{file}}' inside module '{{to}}': import what '{{to}}' exports from its index.ts (add it there if it is meant for others).",
      lowerLayer:
        "'{{from}}/' imports module '{{to}}': channels/, platform/ and db/ sit below the modules; pass what they need in (a port built in composition.ts) instead.",
    },
    schema: [],
  },
  create(context) {
    if (isTestFile(context.filename)) return {};
    const check = (source) => {
      if (!source || source.type !== 'Literal' || typeof source.value !== 'string') return;
      const problem = faceProblem(context.filename, source.value);
      if (problem) context.report({ node: source, ...problem });
    };
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
    };
  },
};
