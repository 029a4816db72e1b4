// The catalogues widget-messages.plugin.ts compiles at build time, one module per locale.
declare module 'virtual:widget-messages/*' {
  export const messages: Record<string, unknown>;
}
