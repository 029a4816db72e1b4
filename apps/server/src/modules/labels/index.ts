// The public face of the labels module: what other modules and the app's composition may use.
// Everything else in modules/labels/ is private to it (eslint: titan-server/module-faces).

export { findLabels, hasEveryLabel, labelsJson } from './labels.repository';
export { labelRoutes } from './labels.routes';
export { applyLabels, type LabelChange, resolveLabels } from './labels.service';
