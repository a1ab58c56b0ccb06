// A trace target is an IP address or a DNS name; a name is resolved at start and on demand.
import { lookup } from 'node:dns/promises';
import { addressFamily, canonicalAddress } from '../codec/address.js';
import { EngineError } from '../errors.js';

export type NameResolver = (name: string, family: 4 | 6 | undefined) => Promise<string>;

export const systemResolveName: NameResolver = async (name, family) => {
  const r = await lookup(name, { family: family ?? 0 });
  return r.address;
};

export function isAddress(target: string): boolean {
  return canonicalAddress(target) !== null;
}

export async function resolveTarget(target: string, family: 4 | 6 | undefined, resolveName: NameResolver): Promise<{ address: string; family: 4 | 6 }> {
  const direct = canonicalAddress(target);
  let address = direct;
  if (!address) {
    try {
      address = canonicalAddress(await resolveName(target, family));
    } catch (err) {
      throw new EngineError('ResolveFailed', `Cannot resolve ${target}: ${err instanceof Error ? err.message : String(err)}`);
    }
    if (!address) throw new EngineError('ResolveFailed', `Cannot resolve ${target}: no address`);
  }
  const fam = addressFamily(address)!;
  if (family && fam !== family) throw new EngineError('BadOptions', `${target} is not an IPv${family} address`);
  return { address, family: fam };
}
