// The /mainHub the server builds against server/contract/mainhub.ts, the one list of calls
// and events the console is typed by. Compile time already refuses drift (methods.ts
// `satisfies HubMethodsOf<...>`; `npm run typecheck` checks this file's @ts-expect-error
// lines too); this test also fails at run time when a method is added or dropped on one
// side only.
import { describe, expect, it } from 'vitest';
import { MainHubEventNames, MainHubMethodNames, MainHubRegistrations } from '../contract/mainhub.js';
import { hubMethods, type HubMethodsOf } from '../hub/index.js';
import { createMainHub, type MainHubDeps } from './methods.js';

describe('/mainHub and its contract', () => {
  // Only the definitions are read: no handler runs on this hub.
  const hub = createMainHub({ currentPrincipal: async () => null } as unknown as MainHubDeps);

  it('serves every method the contract names, and no other', () => {
    expect(Object.keys(hub.definition.methods).sort()).toEqual([...MainHubMethodNames].sort());
  });

  it('names the events of spec 3 section 7.5', () => {
    expect(MainHubEventNames).toContain('HostUpdated');
    expect(MainHubEventNames).toContain('CommentChanged');
    expect(new Set(MainHubEventNames).size).toBe(MainHubEventNames.length);
  });

  it('pairs every group join with a leave the hub serves', () => {
    for (const [join, leave] of Object.entries(MainHubRegistrations)) {
      expect(hub.definition.methods).toHaveProperty(join);
      expect(hub.definition.methods).toHaveProperty(leave);
    }
  });
});

// Type level: what HubMethodsOf refuses (checked by tsc, not at run time).
type Contract = { Add: { args: [a: number, b: number]; result: number } };
const { method } = hubMethods<unknown>();
const num = { type: 'number' } as const;
const add = method({ args: [{ name: 'a', schema: num }, { name: 'b', schema: num }], handler: (_ctx, a, b) => a + b });

export const served = { Add: add } satisfies HubMethodsOf<unknown, Contract>;
// @ts-expect-error a method of the contract is missing
export const missing = {} satisfies HubMethodsOf<unknown, Contract>;
// @ts-expect-error a method the contract does not name
export const extra = { Add: add, Sub: add } satisfies HubMethodsOf<unknown, Contract>;
export const wrongAnswer = {
  // @ts-expect-error the answer is not the contract's type
  Add: method({ args: [{ name: 'a', schema: num }, { name: 'b', schema: num }], handler: (_ctx, a, b) => `${a + b}` }),
} satisfies HubMethodsOf<unknown, Contract>;
export const narrowerArgument = {
  // @ts-expect-error the server refuses an argument the contract lets clients send
  Add: method({ args: [{ name: 'a', schema: { type: 'integer', enum: [1, 2] } }, { name: 'b', schema: num }], handler: (_ctx, a, b) => a + b }),
} satisfies HubMethodsOf<unknown, Contract>;
