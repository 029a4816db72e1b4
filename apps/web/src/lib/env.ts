// The web app's build-time settings (Vite env), validated by one zod schema; unset or empty = default.
import { z } from 'zod';

const optional = z
  .string()
  .optional()
  .transform((value) => (value?.trim() ? value.trim() : undefined));

export const ZWebEnv = z.object({
  /** Where logout lands when the server does not say; the server's own default is /login. */
  VITE_AUTH_SITE_URL: optional,
});
export type TWebEnv = z.infer<typeof ZWebEnv>;

/** Read on each call so tests can stub the env; the values never change in a running app. */
export function webEnv(): TWebEnv {
  return ZWebEnv.parse(import.meta.env);
}
