// ESLint rule for the web app: a feature (apps/web/src/features/<name>/) never imports another
// feature. Shared code lives in src/components, lib, hooks or config; the app (src/app) composes
// features. Relative specifiers are resolved against the importing file, whatever its depth.
import path from 'node:path';

const FEATURES_DIR = path.join('apps', 'web', 'src', 'features');

/** The feature a path lies in, and the features folder itself, or null outside any feature. */
function featureOf(file) {
  const normalized = path.normalize(file);
  const marker = `${path.sep}${FEATURES_DIR}${path.sep}`;
  const at = normalized.lastIndexOf(marker);
  if (at === -1) return null;
  const root = normalized.slice(0, at + marker.length);
  const name = normalized.slice(root.length).split(path.sep)[0];
  return name ? { root, name } : null;
}

export const noCrossFeatureImports = {
  meta: {
    type: 'problem',
    docs: { description: 'Forbid a web feature from importing another feature.' },
    messages: {
      crossFeature:
        "Feature '{{from}}' imports feature '{{to}}': move the shared piece to src/components, lib, hooks or config, or compose the two in src/app.",
    },
    schema: [],
  },
  create(context) {
    const own = featureOf(context.filename);
    if (!own) return {};
    const check = (source) => {
      if (!source || source.type !== 'Literal' || typeof source.value !== 'string') return;
      if (!source.value.startsWith('.')) return;
      const target = path.resolve(path.dirname(context.filename), source.value);
      if (!target.startsWith(own.root)) return;
      const name = target.slice(own.root.length).split(path.sep)[0];
      if (name && name !== own.name) {
        context.report({ node: source, messageId: 'crossFeature', data: { from: own.name, to: name } });
      }
    };
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
    };
  },
};
