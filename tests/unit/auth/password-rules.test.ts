import { describe, expect, it } from 'vitest';
import { isPasswordAcceptable, passwordScore, normalizeEmail, isEmailAddress } from '../../../contract/auth.ts';
import { resetSegments, ruleChecklist, strengthLabel } from '../../../src/lib/password-rules.ts';
import { parseResetLink } from '../../../src/lib/password-reset-link.ts';

describe('password rules', () => {
  it.each([
    ['', 0],
    ['abcdefgh', 2],
    ['Abcdefgh', 3],
    ['Abcdefg1', 4],
    ['Abcdef1!', 5],
    ['A1!', 3],
  ])('scores %j as %i of 5', (password, score) => {
    expect(passwordScore(password)).toBe(score);
  });

  it('counts only the special characters of SPEC §5', () => {
    for (const c of '!@#$%^&*(),.?":{}|<>') expect(passwordScore(c)).toBe(1);
    for (const c of '-_+=~/\\[]') expect(passwordScore(c)).toBe(0);
  });

  it('labels weak under 3, intermediate at 3 or 4, strong at 5', () => {
    expect(strengthLabel('abcdefgh')).toBe('weak');
    expect(strengthLabel('Abcdefgh')).toBe('intermediate');
    expect(strengthLabel('Abcdefg1')).toBe('intermediate');
    expect(strengthLabel('Abcdef1!')).toBe('strong');
  });

  it('accepts a new password only at 8 characters and a score of 3', () => {
    expect(isPasswordAcceptable('Abcdefgh')).toBe(true);
    expect(isPasswordAcceptable('abcdefgh')).toBe(false);
    expect(isPasswordAcceptable('Ab1!xyz')).toBe(false);
    expect(isPasswordAcceptable(`Aa1!${'x'.repeat(253)}`)).toBe(false);
  });

  it('lists the five rules in order with whether each is met', () => {
    expect(ruleChecklist('abc1').map((r) => [r.id, r.met])).toEqual([
      ['length', false],
      ['uppercase', false],
      ['lowercase', true],
      ['digit', true],
      ['special', false],
    ]);
  });

  it('fills one reset segment per requirement: length, uppercase, number, special', () => {
    expect(resetSegments('abc')).toBe(0);
    expect(resetSegments('abcdefgh')).toBe(1);
    expect(resetSegments('Password1')).toBe(3);
    expect(resetSegments('Password1!')).toBe(4);
  });
});

describe('addresses and reset links', () => {
  it('normalises and recognises e-mail addresses', () => {
    expect(normalizeEmail('  Ada@Example.ORG ')).toBe('ada@example.org');
    expect(isEmailAddress('ada@example.org')).toBe(true);
    expect(isEmailAddress('ada@example')).toBe(false);
    expect(isEmailAddress('a da@example.org')).toBe(false);
  });

  it('reads token and email, turning spaces back into plus signs and trimming', () => {
    expect(parseResetLink('?token=abc&email=ada+qc@example.org')).toEqual({
      token: 'abc',
      email: 'ada+qc@example.org',
    });
    expect(parseResetLink('?token=abc&email=%20ada%2Bqc%40example.org%20')).toEqual({
      token: 'abc',
      email: 'ada+qc@example.org',
    });
  });

  it('is undefined when the token or the email is missing', () => {
    expect(parseResetLink('?token=abc')).toBeUndefined();
    expect(parseResetLink('?email=a@b.org')).toBeUndefined();
    expect(parseResetLink('?token=&email=a@b.org')).toBeUndefined();
  });
});
