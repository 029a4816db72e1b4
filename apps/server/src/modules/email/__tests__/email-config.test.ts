// BOUNCE_SMTP_PORT and EMAIL_RETRY_DELAYS_MS as config.ts validates them.
import { expect, it } from 'vitest';
import { parseConfigEnv, ConfigError } from '../../../config';
it('validates the bounce port and bounded retry waits', () => {
  expect(parseConfigEnv({ EMAIL_RETRY_DELAYS_MS: '100,200' } as never).EMAIL_RETRY_DELAYS_MS).toEqual([
    100, 200,
  ]);
  expect(() => parseConfigEnv({ EMAIL_RETRY_DELAYS_MS: '100,90000' } as never)).toThrow(ConfigError);
  expect(() => parseConfigEnv({ BOUNCE_SMTP_PORT: 'abc' } as never)).toThrow(
    /BOUNCE_SMTP_PORT: expected a port number/,
  );
  expect(parseConfigEnv({ BOUNCE_SMTP_PORT: '2526' } as never).BOUNCE_SMTP_PORT).toBe(2526);
});
