// The public face of the plugins module: what other modules and the app's composition may use.
// Everything else in modules/plugins/ is private to it (eslint: titan-server/module-faces).

export { loadPluginManifests } from './plugins.manifests';
export { pluginRoutes } from './plugins.routes';
export {
  callPluginTool,
  ensureFreshPlugin,
  findPluginRow,
  listPluginRows,
  pluginCatalogue,
  type PluginConnectionRow,
  pluginToolsOf,
} from './plugins.service';
