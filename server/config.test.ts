import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';

describe('loadConfig', () => {
  it('has the documented defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({ port: 8080, host: '0.0.0.0', deployment: 0, licenseMode: 3, rootUser: 'admin', rootPassword: undefined });
    expect(c.dataDir).toMatch(/\/data$/);
  });
  it('rejects values a person mistyped', () => {
    expect(() => loadConfig({ HOPWATCH_PORT: 'eighty' })).toThrow(/HOPWATCH_PORT must be a whole number/);
    expect(() => loadConfig({ HOPWATCH_LICENSE_MODE: '2' })).toThrow(/one of 0, 1, 3, 100, 112/);
    expect(() => loadConfig({ HOPWATCH_TRIAL_EXPIRES: 'soon' })).toThrow(/HOPWATCH_TRIAL_EXPIRES/);
  });
});
