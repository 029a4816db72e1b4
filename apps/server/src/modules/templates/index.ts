// The public face of the templates module: what other modules and the app's composition may use.
// Everything else in modules/templates/ is private to it (eslint: titan-server/module-faces).

export { templateAiRoutes } from './templates.ai.routes';
export { templateRoutes } from './templates.routes';
export {
  type CompiledTemplate,
  findTemplates,
  loadCompiledTemplate,
  renderCompiled,
  templateExists,
  TemplateRenderError,
} from './templates.service';
// The brand's logo and colour are the public consent pages' look too (one setting).
export { findBrand, saveBrandLook } from './templates.brand.service';
