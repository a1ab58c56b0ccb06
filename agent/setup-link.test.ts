import { describe, expect, it } from 'vitest';
import { formatSetupLink, parseSetupLink } from './setup-link.js';

describe('Auto Setup links', () => {
  it('carry mode, id, key and the URL-encoded server, and read back', () => {
    const link = formatSetupLink({ id: 7, key: 'abc_DEF-123', server: 'http://10.251.52.1:8080' });
    expect(link).toBe('hopwatch://setup?mode=sentinel&id=7&key=abc_DEF-123&server=http%3A%2F%2F10.251.52.1%3A8080');
    expect(parseSetupLink(link)).toEqual({ id: 7, key: 'abc_DEF-123', server: 'http://10.251.52.1:8080' });
  });

  it('refuse what is not one, saying why', () => {
    expect(() => parseSetupLink('https://example.test/')).toThrow(/starts with hopwatch:\/\//);
    expect(() => parseSetupLink('hopwatch://setup?mode=x&id=1&key=k&server=http%3A%2F%2Fa')).toThrow(/mode=sentinel/);
    expect(() => parseSetupLink('hopwatch://setup?mode=sentinel&id=0&key=k&server=http%3A%2F%2Fa')).toThrow(/agent id/);
    expect(() => parseSetupLink('hopwatch://setup?mode=sentinel&id=1&server=http%3A%2F%2Fa')).toThrow(/no key/);
    expect(() => parseSetupLink('hopwatch://setup?mode=sentinel&id=1&key=k&server=ftp%3A%2F%2Fa')).toThrow(/http/);
    expect(() => parseSetupLink('not a link')).toThrow(/not an Auto Setup link/);
  });
});
