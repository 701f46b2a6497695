import { randomFillSync } from 'node:crypto';

/** CSPRNG bytes drawn 3 KiB at a time (a token takes 3): one system call per 1,024 tokens. */
const pool = Buffer.alloc(3 * 1024);
let offset = pool.length;

/**
 * A profiler token: 6 lowercase hex characters from the CSPRNG (Symfony 7.2's
 * `bin2hex(random_bytes(3))`). Like Symfony's, it is not checked against the store.
 * @returns the token
 */
export function generateToken(): string {
  if (offset + 3 > pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  const t = pool.toString('hex', offset, offset + 3);
  offset += 3;
  return t;
}

/** True for a well-formed token. */
export function isToken(value: string): boolean {
  return /^[0-9a-f]{6}$/.test(value);
}
