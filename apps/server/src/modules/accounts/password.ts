import argon2 from 'argon2';
import type { Config } from '../../config.js';

/** Argon2id password hashing (RFC 9106; parameters from config, OWASP minimums by default). */
export class PasswordHasher {
  private dummy: Promise<string> | null = null;
  constructor(private readonly config: Pick<Config, 'ARGON2_MEMORY_KIB' | 'ARGON2_TIME_COST'>) {}

  hash(password: string): Promise<string> {
    return argon2.hash(password, { type: argon2.argon2id, memoryCost: this.config.ARGON2_MEMORY_KIB, timeCost: this.config.ARGON2_TIME_COST, parallelism: 1 });
  }

  async verify(hash: string, password: string): Promise<boolean> {
    try {
      return await argon2.verify(hash, password);
    } catch {
      return false;
    }
  }

  /** Spends the same time as a real check when the user does not exist, so timing does not reveal usernames. */
  async burn(password: string): Promise<void> {
    this.dummy ??= this.hash('not-a-real-password-' + Math.random());
    await this.verify(await this.dummy, password);
  }
}
