// The public face of the presence module: what other modules and the app's composition may use.
// Everything else in modules/presence/ is private to it (eslint: titan-server/module-faces).

export { presenceRoutes } from './presence.routes';
export {
  expirePresence,
  PRESENCE_TABLE,
  presenceOf,
  setPresence,
  startPresenceSweep,
  touchPresence,
} from './presence.service';
export { presenceTopic } from './presence.topic';
