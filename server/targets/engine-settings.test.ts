import { describe, expect, it } from 'vitest';
import { parseEngineSettings } from './engine-settings.js';

describe('engine settings of a configuration', () => {
  it('carries the issue 16 options (DSCP, hop owners) to the engine, and drops unknown keys', () => {
    expect(parseEngineSettings('{"dscp":46,"hopOwners":false,"packetType":"UDP","bogus":1}')).toEqual({ dscp: 46, hopOwners: false, packetType: 'UDP' });
    expect(parseEngineSettings('not json')).toEqual({});
  });
});
