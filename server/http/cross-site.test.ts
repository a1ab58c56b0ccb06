import { describe, expect, it } from 'vitest';
import { crossSiteRefusal } from './cross-site.js';

const own = { host: '127.0.0.1:8080' };

describe('crossSiteRefusal', () => {
  it('lets the console through: same-origin, a typed address, or no browser metadata at all', () => {
    expect(crossSiteRefusal({ ...own, 'sec-fetch-site': 'same-origin' })).toBeUndefined();
    expect(crossSiteRefusal({ ...own, 'sec-fetch-site': 'same-origin', origin: 'http://127.0.0.1:8080' })).toBeUndefined();
    expect(crossSiteRefusal({ ...own, 'sec-fetch-site': 'none' })).toBeUndefined();
    expect(crossSiteRefusal(own)).toBeUndefined();
    expect(crossSiteRefusal({ host: 'hopwatch.example.org', origin: 'https://hopwatch.example.org' })).toBeUndefined();
    // A default port in the Host header is the same origin.
    expect(crossSiteRefusal({ host: 'hopwatch.example.org:443', origin: 'https://hopwatch.example.org' })).toBeUndefined();
    expect(crossSiteRefusal({ host: 'HOPWATCH.example.org', origin: 'https://hopwatch.example.org' })).toBeUndefined();
  });

  it('refuses what another site or origin sent', () => {
    expect(crossSiteRefusal({ ...own, 'sec-fetch-site': 'cross-site' })).toMatch(/Sec-Fetch-Site: cross-site/);
    expect(crossSiteRefusal({ ...own, 'sec-fetch-site': 'same-site' })).toMatch(/Sec-Fetch-Site: same-site/);
    // Another port of the same host is another origin.
    expect(crossSiteRefusal({ ...own, origin: 'http://127.0.0.1:9999' })).toMatch(/Origin: http:\/\/127.0.0.1:9999/);
    expect(crossSiteRefusal({ ...own, origin: 'http://127.0.0.2:8080' })).toMatch(/Origin/);
    expect(crossSiteRefusal({ ...own, origin: 'null' })).toMatch(/Origin: null/);
    expect(crossSiteRefusal({ ...own, origin: '%%%' })).toMatch(/Origin/);
    expect(crossSiteRefusal({ origin: 'http://127.0.0.1:8080' })).toMatch(/Origin/);
    // Same-origin metadata does not excuse a foreign Origin.
    expect(crossSiteRefusal({ ...own, 'sec-fetch-site': 'same-origin', origin: 'http://evil.example' })).toMatch(/Origin/);
  });
});
