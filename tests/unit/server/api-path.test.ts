import { describe, expect, it } from 'vitest';
import { isApiPath, requestPath } from '../../../server/plugins/api-path.ts';

describe('isApiPath', () => {
  it('recognises the API however its letters are percent-encoded, as the router does', () => {
    expect(isApiPath('/api/v1/health')).toBe(true);
    expect(isApiPath('/%61pi/v1/health')).toBe(true);
    expect(isApiPath('/%61%70%69/v1/uploads?search=%41')).toBe(true);
    expect(isApiPath('/api')).toBe(true);
  });

  it('leaves pages, look-alikes and undecodable paths to the site', () => {
    expect(isApiPath('/')).toBe(false);
    expect(isApiPath('/apiary')).toBe(false);
    expect(isApiPath('/dashboard/api/v1')).toBe(false);
    expect(isApiPath('/%E0%A4%A/api/')).toBe(false);
    expect(isApiPath('/?next=/api/v1/health')).toBe(false);
  });

  it('gives back an undecodable path as sent', () => {
    expect(requestPath('/%zz/x?y')).toBe('/%zz/x');
  });
});
