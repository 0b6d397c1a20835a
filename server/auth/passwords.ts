import { hash, parseOptions, verify, type Options } from '@node-rs/argon2';

/**
 * Password hashing: argon2id at OWASP's minimum (19 MiB, 2 passes, 1 lane), about 15–35 ms a hash.
 * The parameters live in the PHC string, so raising them later only needs `needsRehash` at sign-in.
 */
export const passwordHashOptions = {
  // Algorithm.Argon2id is an ambient const enum, which isolatedModules cannot read: 2 is its value.
  algorithm: 2,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const satisfies Options;

/**
 * A hash of a random, forgotten password with the same parameters. Verifying an unknown account
 * against it costs as much as verifying a real one, so timing does not tell which e-mails exist.
 */
export const DUMMY_PASSWORD_HASH =
  '$argon2id$v=19$m=19456,t=2,p=1$KbTXLcv9aZEmh7Sk5uW9yQ$z2q1sQn5As/j++QLl2+uw/mqeddXCf7egHLQk3okMIo';

export async function hashPassword(plain: string): Promise<string> {
  return hash(plain, passwordHashOptions);
}

/**
 * True when `plain` matches `stored`. Pass `null` for an unknown account: the dummy hash is verified
 * instead and the answer is false. A malformed stored hash answers false rather than throwing.
 */
export async function verifyPassword(
  stored: string | null | undefined,
  plain: string,
): Promise<boolean> {
  const target = stored || DUMMY_PASSWORD_HASH;
  try {
    const matches = await verify(target, plain);
    return matches && target !== DUMMY_PASSWORD_HASH;
  } catch {
    return false;
  }
}

/** True when a stored hash was made with weaker (or other) parameters than today's. */
export function needsRehash(stored: string): boolean {
  try {
    const options = parseOptions(stored);
    return (
      options.algorithm !== passwordHashOptions.algorithm ||
      options.memoryCost < passwordHashOptions.memoryCost ||
      options.timeCost < passwordHashOptions.timeCost
    );
  } catch {
    return true;
  }
}
