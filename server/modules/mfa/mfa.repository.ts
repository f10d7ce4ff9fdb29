import { and, eq, isNull, lt, or } from 'drizzle-orm';
import type { Database } from '../../db/connect.ts';
import { mfaFactors, mfaRecoveryCodes } from './mfa.table.ts';
import { openSecret, sealSecret } from './secret-box.ts';

/** A user's authenticator, with its secret opened. */
export type MfaFactor = typeof mfaFactors.$inferSelect;

/**
 * Authenticators and recovery codes: enrol, confirm, use a code once, turn off. With `secretKey`, TOTP
 * secrets are sealed with AES-256-GCM before they reach the database.
 */
export function createMfaRepository({ db, secretKey }: { db: Database; secretKey?: Buffer | undefined }) {
  return {
    /** The user's authenticator, confirmed or waiting for its first code; undefined when none. */
    async find(userId: string): Promise<MfaFactor | undefined> {
      const [row] = await db.select().from(mfaFactors).where(eq(mfaFactors.userId, userId)).limit(1);
      return row && { ...row, secret: openSecret(row.secret, userId, secretKey) };
    },

    /** Whether sign-in must ask this user for a code. */
    async isEnabled(userId: string): Promise<boolean> {
      const [row] = await db
        .select({ confirmedAt: mfaFactors.confirmedAt })
        .from(mfaFactors)
        .where(eq(mfaFactors.userId, userId))
        .limit(1);
      return Boolean(row?.confirmedAt);
    },

    /**
     * Starts (or restarts) an enrolment with a new secret; false when an authenticator is already
     * confirmed, which only turning MFA off may replace.
     */
    async startEnrolment(userId: string, plainSecret: string, now: Date): Promise<boolean> {
      const secret = sealSecret(plainSecret, userId, secretKey);
      const rows = await db
        .insert(mfaFactors)
        .values({ userId, secret, createdAt: now })
        .onConflictDoUpdate({
          target: mfaFactors.userId,
          set: { secret, createdAt: now, lastUsedStep: null },
          setWhere: isNull(mfaFactors.confirmedAt),
        })
        .returning({ userId: mfaFactors.userId });
      return rows.length === 1;
    },

    /**
     * Marks the step of a code as used; false when that step or a later one was used already, so of
     * two requests with one code only one gets through.
     */
    async useStep(userId: string, step: number): Promise<boolean> {
      const rows = await db
        .update(mfaFactors)
        .set({ lastUsedStep: step })
        .where(
          and(eq(mfaFactors.userId, userId), or(isNull(mfaFactors.lastUsedStep), lt(mfaFactors.lastUsedStep, step))),
        )
        .returning({ userId: mfaFactors.userId });
      return rows.length === 1;
    },

    /** Confirms the enrolment and replaces any recovery codes with the given hashes, in one transaction. */
    async confirm(userId: string, codeHashes: string[], now: Date): Promise<void> {
      await db.transaction(async (tx) => {
        await tx.update(mfaFactors).set({ confirmedAt: now }).where(eq(mfaFactors.userId, userId));
        await tx.delete(mfaRecoveryCodes).where(eq(mfaRecoveryCodes.userId, userId));
        await tx.insert(mfaRecoveryCodes).values(codeHashes.map((codeHash) => ({ userId, codeHash, createdAt: now })));
      });
    },

    /** Uses up a recovery code; false when it is unknown or was used before (also when two requests race). */
    async useRecoveryCode(userId: string, codeHash: string, now: Date): Promise<boolean> {
      const rows = await db
        .update(mfaRecoveryCodes)
        .set({ usedAt: now })
        .where(
          and(
            eq(mfaRecoveryCodes.userId, userId),
            eq(mfaRecoveryCodes.codeHash, codeHash),
            isNull(mfaRecoveryCodes.usedAt),
          ),
        )
        .returning({ id: mfaRecoveryCodes.id });
      return rows.length === 1;
    },

    /** How many recovery codes are still unused. */
    async recoveryCodesLeft(userId: string): Promise<number> {
      const rows = await db
        .select({ id: mfaRecoveryCodes.id })
        .from(mfaRecoveryCodes)
        .where(and(eq(mfaRecoveryCodes.userId, userId), isNull(mfaRecoveryCodes.usedAt)));
      return rows.length;
    },

    /** Removes the authenticator and its recovery codes. */
    async remove(userId: string): Promise<void> {
      await db.transaction(async (tx) => {
        await tx.delete(mfaRecoveryCodes).where(eq(mfaRecoveryCodes.userId, userId));
        await tx.delete(mfaFactors).where(eq(mfaFactors.userId, userId));
      });
    },
  };
}

export type MfaRepository = ReturnType<typeof createMfaRepository>;
