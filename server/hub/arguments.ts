// Hub method arguments: each positional argument is checked against a JSON schema with
// the same validator Fastify uses for routes (ajv 8), so a REST route and its hub twin can
// share one schema. A method may instead bring its own validate function.
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';

export type JsonSchema = Record<string, unknown>;

/** One positional argument: its name (used in error messages) and its JSON schema. */
export interface ArgSpec {
  readonly name: string;
  readonly schema: JsonSchema;
  /** Trailing optional arguments may be left out by the caller. */
  readonly optional?: boolean;
}

/** Returns a message a person can act on when the arguments are wrong, else undefined. */
export type ArgsValidator = (args: unknown[]) => string | undefined;

// ---- Types inferred from schema literals (declare args `as const` or inline) ----

type Simple<T> = T extends 'string'
  ? string
  : T extends 'number' | 'integer'
    ? number
    : T extends 'boolean'
      ? boolean
      : T extends 'null'
        ? null
        : T extends 'array'
          ? unknown[]
          : T extends 'object'
            ? Record<string, unknown>
            : unknown;

type Simplify<T> = { -readonly [K in keyof T]: T[K] } & {};

type ObjectOf<S> = S extends { properties: infer P }
  ? S extends { required: readonly (infer R)[] }
    ? Simplify<
        { [K in keyof P as K extends R ? K : never]: FromSchema<P[K]> } & {
          [K in keyof P as K extends R ? never : K]?: FromSchema<P[K]>;
        }
      >
    : Simplify<{ [K in keyof P]?: FromSchema<P[K]> }>
  : Record<string, unknown>;

/** The TypeScript type a (simple) JSON schema describes; unknown where it cannot tell. */
export type FromSchema<S> = S extends { enum: readonly (infer E)[] }
  ? E
  : S extends { type: 'array'; items: infer I }
    ? FromSchema<I>[]
    : S extends { type: 'object' }
      ? ObjectOf<S>
      : S extends { type: readonly (infer T)[] }
        ? Simple<T>
        : S extends { type: infer T }
          ? Simple<T>
          : unknown;

/** The handler's argument tuple for a list of ArgSpecs. */
export type ArgsOf<S extends readonly ArgSpec[]> = {
  -readonly [K in keyof S]: S[K] extends { schema: infer Schema; optional: true }
    ? FromSchema<Schema> | undefined
    : S[K] extends { schema: infer Schema }
      ? FromSchema<Schema>
      : unknown;
};

// ---- Compilation ----

// Same settings as Fastify's route validator, minus type coercion: hub arguments arrive
// as typed JSON, so "5" for a number is a client bug worth reporting.
const ajv = new Ajv({ coerceTypes: false, useDefaults: true, removeAdditional: true, allErrors: false, strict: false });

function describe(error: ErrorObject | undefined): string {
  if (!error) return 'is not valid';
  const at = error.instancePath ? ` at "${error.instancePath.replace(/^\//, '').replace(/\//g, '.')}"` : '';
  const missing = (error.params as { missingProperty?: string }).missingProperty;
  if (missing) return `is missing "${missing}"`;
  return `${error.message ?? 'is not valid'}${at}`;
}

/** Builds the validator for a method's argument list (schemas compiled once, up front). */
export function compileArgs(method: string, specs: readonly ArgSpec[]): ArgsValidator {
  const compiled: { spec: ArgSpec; check: ValidateFunction }[] = specs.map((spec) => ({
    spec,
    check: ajv.compile(spec.schema),
  }));
  const required = specs.filter((s) => !s.optional).length;
  const takes =
    required === specs.length
      ? `${specs.length} argument${specs.length === 1 ? '' : 's'}`
      : `${required} to ${specs.length} arguments`;
  const names = specs.map((s) => s.name).join(', ');
  return (args) => {
    if (args.length < required || args.length > specs.length) {
      return `Hub method '${method}' takes ${takes}${names ? ` (${names})` : ''}; it was called with ${args.length}.`;
    }
    for (let i = 0; i < args.length; i++) {
      const { spec, check } = compiled[i]!;
      if (args[i] === undefined && spec.optional) continue;
      if (!check(args[i])) {
        return `Argument ${i + 1} ('${spec.name}') of hub method '${method}' ${describe(check.errors?.[0])}.`;
      }
    }
    return undefined;
  };
}
