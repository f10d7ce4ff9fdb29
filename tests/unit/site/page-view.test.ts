// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { reportPageView } from '../../../src/lib/page-view.ts';

describe('reportPageView', () => {
  const sendBeacon = vi.fn(() => true);
  beforeEach(() => {
    Object.defineProperty(navigator, 'sendBeacon', { value: sendBeacon, configurable: true });
    Object.defineProperty(navigator, 'doNotTrack', { value: null, configurable: true });
  });
  afterEach(() => {
    sendBeacon.mockClear();
    vi.unstubAllEnvs();
  });

  it('sends the path and referrer only, as JSON, with sendBeacon', async () => {
    reportPageView('/careers', 'https://search.example/');
    expect(sendBeacon).toHaveBeenCalledTimes(1);
    const [url, body] = sendBeacon.mock.calls[0] as unknown as [string, Blob];
    expect(url).toBe('/api/v1/analytics/page-views');
    expect(body.type).toBe('application/json');
    expect(JSON.parse(await body.text())).toEqual({ path: '/careers', referrer: 'https://search.example/' });
  });

  it('sends a null referrer when there is none', async () => {
    reportPageView('/', '');
    const [, body] = sendBeacon.mock.calls[0] as unknown as [string, Blob];
    expect(JSON.parse(await body.text())).toEqual({ path: '/', referrer: null });
  });

  it('sends nothing when the browser asks not to be tracked', () => {
    Object.defineProperty(navigator, 'doNotTrack', { value: '1', configurable: true });
    reportPageView('/');
    expect(sendBeacon).not.toHaveBeenCalled();
  });

  it('sends nothing in a PUBLIC_ANALYTICS=off build', () => {
    vi.stubEnv('PUBLIC_ANALYTICS', 'off');
    reportPageView('/');
    expect(sendBeacon).not.toHaveBeenCalled();
  });
});
