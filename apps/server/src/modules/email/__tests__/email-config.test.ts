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

it('takes a whole number of SMTP threads from 0 to 16, unset by default', () => {
  expect(parseConfigEnv({} as never).EMAIL_SMTP_THREADS).toBeUndefined();
  expect(parseConfigEnv({ EMAIL_SMTP_THREADS: '' } as never).EMAIL_SMTP_THREADS).toBeUndefined();
  expect(parseConfigEnv({ EMAIL_SMTP_THREADS: '0' } as never).EMAIL_SMTP_THREADS).toBe(0);
  expect(parseConfigEnv({ EMAIL_SMTP_THREADS: '3' } as never).EMAIL_SMTP_THREADS).toBe(3);
  for (const bad of ['-1', '17', '1.5', 'two'])
    expect(() => parseConfigEnv({ EMAIL_SMTP_THREADS: bad } as never)).toThrow(
      /EMAIL_SMTP_THREADS: expected a whole number from 0 to 16/,
    );
});
