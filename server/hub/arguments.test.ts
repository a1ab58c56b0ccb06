import { describe, expect, expectTypeOf, it } from 'vitest';
import { type ArgsOf, compileArgs } from './arguments.js';

describe('hub argument validation', () => {
  const specs = [
    { name: 'targetId', schema: { type: 'integer', minimum: 1 } },
    { name: 'range', schema: { type: 'object', properties: { start: { type: 'number' } }, required: ['start'] } },
    { name: 'detail', schema: { type: 'boolean' }, optional: true },
  ] as const;
  const validate = compileArgs('GetComments', specs);

  it('accepts good arguments, with or without the optional trailing one', () => {
    expect(validate([3, { start: 1 }])).toBeUndefined();
    expect(validate([3, { start: 1 }, true])).toBeUndefined();
  });

  it('reports the count, the position, the name and the rule broken', () => {
    expect(validate([3])).toBe(
      "Hub method 'GetComments' takes 2 to 3 arguments (targetId, range, detail); it was called with 1.",
    );
    expect(validate([0, { start: 1 }])).toBe("Argument 1 ('targetId') of hub method 'GetComments' must be >= 1.");
    expect(validate([1.5, { start: 1 }])).toBe("Argument 1 ('targetId') of hub method 'GetComments' must be integer.");
    expect(validate([1, {}])).toBe(`Argument 2 ('range') of hub method 'GetComments' is missing "start".`);
    expect(validate([1, { start: 'x' }])).toBe(
      `Argument 2 ('range') of hub method 'GetComments' must be number at "start".`,
    );
    expect(validate([1, { start: 1 }, 'yes'])).toBe("Argument 3 ('detail') of hub method 'GetComments' must be boolean.");
  });

  it('infers handler parameter types from the schemas', () => {
    expectTypeOf<ArgsOf<typeof specs>>().toEqualTypeOf<[number, { start: number }, boolean | undefined]>();
  });
});
