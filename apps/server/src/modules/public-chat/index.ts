// The public face of the public-chat module: what other modules and the app's composition may use.
// Everything else in modules/public-chat/ is private to it (eslint: titan-server/module-faces).

export { publicChatRoutes } from './public-chat.routes';
export { PUBLIC_RETENTION_CRON, PUBLIC_RETENTION_QUEUE, runPublicRetention } from './public-retention';
export { verifyVisitor, VISITOR_SESSION_ENDED, visitorStillValid, VisitorTokens } from './visitor-tokens';
