import { PASSWORD_MIN_LENGTH, PASSWORD_SPECIALS, passwordRules, passwordScore } from '../../contract/auth.ts';

export { isPasswordAcceptable, passwordRules, passwordScore } from '../../contract/auth.ts';

/** How strong a password looks: weak under 3 rules of 5, intermediate at 3 or 4, strong at 5 (SPEC §4). */
export type StrengthLabel = 'weak' | 'intermediate' | 'strong';

/**
 * The strength label of a password.
 * @example strengthLabel('Abcdefg1') // "intermediate"
 */
export function strengthLabel(password: string): StrengthLabel {
  const score = passwordScore(password);
  if (score >= passwordRules.length) return 'strong';
  return score >= 3 ? 'intermediate' : 'weak';
}

/** Each of the five rules with whether the password meets it: the register checklist. */
export function ruleChecklist(password: string): { id: string; label: string; met: boolean }[] {
  return passwordRules.map((rule) => ({ id: rule.id, label: rule.label, met: rule.test(password) }));
}

/** The four requirements of the reset strength bar (SPEC §2), one segment each. */
export const resetRequirements = [
  { id: 'length', label: 'Minimum length', test: (p: string) => p.length >= PASSWORD_MIN_LENGTH },
  { id: 'uppercase', label: 'Uppercase', test: (p: string) => /[A-Z]/.test(p) },
  { id: 'number', label: 'Number', test: (p: string) => /\d/.test(p) },
  {
    id: 'special',
    label: 'Special character',
    test: (p: string) => [...p].some((c) => PASSWORD_SPECIALS.includes(c)),
  },
] as const;

/**
 * How many segments of the reset strength bar are filled.
 * @example resetSegments('Password1') // 3
 */
export function resetSegments(password: string): number {
  return resetRequirements.filter((requirement) => requirement.test(password)).length;
}
