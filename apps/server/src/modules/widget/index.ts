// The public face of the widget module: what other modules and the app's composition may use.
// Everything else in modules/widget/ is private to it (eslint: titan-server/module-faces).

export { widgetRoutes } from './widget.routes';
