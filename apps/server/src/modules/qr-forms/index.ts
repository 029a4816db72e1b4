// The public face of the qr-forms module: what other modules and the app's composition may use.
// Everything else in modules/qr-forms/ is private to it (eslint: titan-server/module-faces).

export { customerSubmissions, deleteCustomerSubmissions } from './qr-forms.repository';
export { qrFormRoutes } from './qr-forms.routes';
