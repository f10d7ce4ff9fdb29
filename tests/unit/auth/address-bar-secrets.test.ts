// @vitest-environment happy-dom
import { beforeEach, describe, expect, it } from 'vitest';
import { takeFromAddressBar } from '../../../src/lib/address-bar-secrets.ts';

describe('takeFromAddressBar', () => {
  beforeEach(() => window.history.replaceState(null, '', '/'));

  it('answers the named parameters and leaves only the others in the address', () => {
    window.history.replaceState(null, '', '/reset-password?token=abc&email=ada%2Bqc%40example.org&lang=en#top');
    const taken = takeFromAddressBar(['token', 'email']);
    expect(taken.get('token')).toBe('abc');
    expect(taken.get('email')).toBe('ada+qc@example.org');
    expect(window.location.pathname + window.location.search + window.location.hash).toBe(
      '/reset-password?lang=en#top',
    );
  });

  it('finds them again in the history entry once the address no longer holds them (a reload, a Retry)', () => {
    window.history.replaceState({ other: 1 }, '', '/verify-email?token=xyz');
    takeFromAddressBar(['token']);
    expect(window.location.search).toBe('');
    expect(takeFromAddressBar(['token']).get('token')).toBe('xyz');
    expect(window.history.state).toMatchObject({ other: 1 });
  });

  it('changes nothing when the address holds none of them', () => {
    window.history.replaceState(null, '', '/verify-email?x=1');
    expect(takeFromAddressBar(['token']).size).toBe(0);
    expect(window.location.search).toBe('?x=1');
    expect(window.history.state).toBeNull();
  });
});
