// The rule that warns when an Auto Setup link would send an agent on another machine to an
// address it cannot reach (issue 40 item 4): loopback, link-local, unspecified and bare
// single-label names are named with the reason; routable addresses and DNS names pass.
import { describe, expect, it } from 'vitest';
import { unreachableAddress } from './reachable-address.js';

describe('unreachableAddress', () => {
  it('names loopback addresses and names', () => {
    for (const url of ['http://127.0.0.1:8080', 'http://127.1.2.3', 'http://[::1]:8080', 'http://[::ffff:127.0.0.1]:80', 'http://localhost:8080', 'https://LOCALHOST.', 'http://app.localhost'])
      expect(unreachableAddress(url), url).toMatchObject({ kind: 'loopback' });
    expect(unreachableAddress('http://127.0.0.1:8080')!.text).toMatch(/^The link names 127\.0\.0\.1, a loopback address/);
  });

  it('names link-local and unspecified addresses', () => {
    for (const url of ['http://169.254.10.20', 'http://[fe80::1]:8080', 'http://[febf::1]']) expect(unreachableAddress(url), url).toMatchObject({ kind: 'link-local' });
    for (const url of ['http://0.0.0.0:8080', 'http://[::]:8080', 'http://0.1.2.3']) expect(unreachableAddress(url), url).toMatchObject({ kind: 'unspecified' });
  });

  it('names a bare single-label host name', () => {
    expect(unreachableAddress('http://hopwatch:8080')).toMatchObject({ kind: 'single-label', host: 'hopwatch' });
    expect(unreachableAddress('http://hopwatch.:8080')).toMatchObject({ kind: 'single-label' });
  });

  it('passes routable addresses and DNS names', () => {
    for (const url of ['http://10.251.0.1:8080', 'https://hopwatch.example.org', 'http://192.168.1.5', 'http://[2001:db8::1]:8080', 'http://[fec0::1]', 'http://169.253.1.1', 'http://128.0.0.1'])
      expect(unreachableAddress(url), url).toBeUndefined();
  });

  it('names what is not a URL at all', () => {
    expect(unreachableAddress('not a url')).toMatchObject({ kind: 'invalid' });
  });
});
