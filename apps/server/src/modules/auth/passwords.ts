// argon2id password hashing (OWASP parameters) and a refusal of the most common passwords.
import { hash, verify } from '@node-rs/argon2';

// algorithm 2 = Argon2id (the package's const enum cannot be imported under verbatimModuleSyntax).
const OPTIONS = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

// Hashing a dummy value keeps a login for an unknown email as slow as one for a known email.
let dummyHash: Promise<string> | null = null;
export async function burnPasswordCheck(password: string): Promise<void> {
  dummyHash ??= hashPassword('titan-timing-equaliser');
  await verifyPassword(await dummyHash, password);
}

// The most used passwords of at least 8 characters in public breach corpora.
const COMMON = new Set(
  `12345678 123456789 1234567890 password password1 password12 password123 qwertyui qwerty123 qwertyuiop
  11111111 00000000 87654321 iloveyou 1q2w3e4r 1q2w3e4r5t 1qaz2wsx abcd1234 abc12345 a1b2c3d4 sunshine
  princess football baseball welcome1 welcome123 letmein1 trustno1 superman starwars whatever 12341234
  11223344 zaq12wsx passw0rd p@ssw0rd p@ssword admin123 administrator changeme dragon123 monkey123
  qazwsxedc asdfghjkl asdfasdf computer internet michelle jennifer 123123123 987654321 123qweasd
  q1w2e3r4 q1w2e3r4t5 aa123456 abcdefgh 12344321 1234qwer qwer1234 password! iloveyou1 liverpool
  chocolate butterfly mustang1 master123 shadow12 michael1 charlie1 jordan23 1password 123456789a`
    .split(/\s+/)
    .filter(Boolean),
);

export function isCommonPassword(password: string): boolean {
  return COMMON.has(password.toLowerCase());
}
