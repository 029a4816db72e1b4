// The running version, for health and API docs. The bundler inlines it at build time.
declare const __TITAN_VERSION__: string | undefined;
export const version: string = typeof __TITAN_VERSION__ === 'string' ? __TITAN_VERSION__ : '0.1.0-dev';
