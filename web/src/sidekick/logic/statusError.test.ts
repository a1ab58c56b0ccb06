import { describe, expect, it } from 'vitest';
import { ServerError } from '../../api/errors';
import { reportsStatusError } from './statusError';

describe('Sidekick status load failures', () => {
  it('are shown for 5xx and lost connections, not for 4xx', () => {
    expect(reportsStatusError(new ServerError('boom', 500, '{"Error":"boom"}'))).toBe(true);
    expect(reportsStatusError(new ServerError('The Hopwatch server could not be reached.', 0, ''))).toBe(true);
    expect(reportsStatusError(new Error('parse'))).toBe(true);
    for (const status of [400, 401, 403, 404, 409, 429]) expect(reportsStatusError(new ServerError('no', status, ''))).toBe(false);
  });
});
