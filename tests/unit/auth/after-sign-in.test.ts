import { describe, expect, it } from 'vitest';
import { afterSignInPath } from '../../../src/lib/after-sign-in.ts';

describe('afterSignInPath', () => {
  it('comes back to the dashboard page asked for, query included', () => {
    expect(afterSignInPath('/dashboard/workspace?invite=abc')).toBe('/dashboard/workspace?invite=abc');
    expect(afterSignInPath('/dashboard')).toBe('/dashboard');
    expect(afterSignInPath('/dashboard?x=1')).toBe('/dashboard?x=1');
  });

  it('lands on the dashboard when nothing was kept, or something that is not a dashboard page', () => {
    expect(afterSignInPath(null)).toBe('/dashboard');
    expect(afterSignInPath('https://evil.example/dashboard')).toBe('/dashboard');
    expect(afterSignInPath('//evil.example/dashboard')).toBe('/dashboard');
    expect(afterSignInPath('/dashboardx')).toBe('/dashboard');
    expect(afterSignInPath('/login')).toBe('/dashboard');
  });
});
