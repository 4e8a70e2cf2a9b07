import { hash, verify } from '@node-rs/argon2';

// argon2id with the OWASP-recommended minimum (19 MiB, 2 passes); @node-rs/argon2 defaults to argon2id.
const OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 };

export const hashPassword = (password: string) => hash(password, OPTIONS);

// A real hash of nothing anyone knows: checking an unknown username against it takes as long as a real
// check, so the answer time does not tell whether the username exists.
const dummy = hashPassword(crypto.randomUUID());

export async function verifyPassword(stored: string | null, password: string): Promise<boolean> {
  try {
    const ok = await verify(stored ?? (await dummy), password);
    return stored !== null && ok;
  } catch {
    return false;
  }
}
