// The public face of the customer-imports module: what other modules and the app's composition may use.
// Everything else in modules/customer-imports/ is private to it (eslint: titan-server/module-faces).

export { customerImportRoutes } from './customer-imports.routes';
export { defineImportQueue } from './customer-imports.service';
export { importTopics } from './customer-imports.topics';
export { deleteErrorsNaming as deleteImportErrorsNaming } from './customer-imports.repository';
