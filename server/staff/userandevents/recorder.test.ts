import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { Principal } from '../../account/principal.js';
import { userEventOf } from './recorder.js';

const user: Principal = { userId: 7, accountId: 3, username: 'ann', isRoot: false, claims: [] };
const req = (method: string, url: string | undefined, principal: Principal | undefined, config: Record<string, unknown> = {}) =>
  ({ method, ip: '10.0.0.9', principal, routeOptions: { url, config } }) as unknown as FastifyRequest;

describe('userEventOf', () => {
  it('records changes and errors with the route pattern, never the query', () => {
    expect(userEventOf(req('PATCH', '/api/user/:id', user), 200)).toEqual({
      accountId: 3, userId: 7, kind: 'Change', method: 'PATCH', route: '/api/user/:id', status: 200, address: '10.0.0.9', detail: '',
    });
    expect(userEventOf(req('GET', '/api/Sessions', user), 403)).toMatchObject({ kind: 'Error', status: 403 });
    expect(userEventOf(req('GET', undefined, user), 404)).toMatchObject({ kind: 'Error', route: '(no such route)' });
    // A GET declared to change state is a change.
    expect(userEventOf(req('GET', '/api/Account/Logout', user, { changesState: true }), 204)).toMatchObject({ kind: 'Change' });
  });

  it('skips reads that answered, signed-out callers, visitors and the hub\'s own requests', () => {
    expect(userEventOf(req('GET', '/api/Sessions', user), 200)).toBeUndefined();
    expect(userEventOf(req('POST', '/api/user', undefined), 401)).toBeUndefined();
    const visitor = { ...user, liveShare: {} } as Principal;
    expect(userEventOf(req('POST', '/api/x', visitor), 403)).toBeUndefined();
    expect(userEventOf(req('POST', '/mainHub', user, { access: 'hubConnection' }), 200)).toBeUndefined();
  });

  it('notes who impersonated', () => {
    const as = { ...user, impersonator: { userId: 1, username: 'sam' } };
    expect(userEventOf(req('DELETE', '/api/user/:id', as), 200)?.detail).toBe('while sam impersonated');
  });
});
