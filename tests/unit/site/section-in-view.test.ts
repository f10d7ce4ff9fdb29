import { describe, expect, it } from 'vitest';
import { sectionAt } from '../../../src/components/section-in-view.ts';

describe('sectionAt', () => {
  it('is the first section before any has reached the reading line', () => {
    expect(sectionAt([300, 1200, 2400], 130)).toBe(0);
  });

  it('is the last section whose top has passed the reading line', () => {
    expect(sectionAt([-900, -100, 129, 800], 130)).toBe(2);
  });

  it('counts a section whose top sits exactly on the line as the one in view', () => {
    expect(sectionAt([-400, 130, 900], 130)).toBe(1);
  });
});
