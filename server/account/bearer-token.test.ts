import { describe, expect, it } from 'vitest';
import { bearerTokenFrom } from './authenticate.js';

describe('bearerTokenFrom', () => {
  it('reads the Authorization header first, then access_token', () => {
    expect(bearerTokenFrom({ authorization: 'Bearer abc' }, '/mainHub?access_token=zzz')).toBe('abc');
    expect(bearerTokenFrom({}, '/mainHub?id=1&access_token=t%2B1')).toBe('t+1');
    expect(bearerTokenFrom({ authorization: 'Basic x' }, '/mainHub')).toBeUndefined();
    expect(bearerTokenFrom({}, undefined)).toBeUndefined();
  });
});
