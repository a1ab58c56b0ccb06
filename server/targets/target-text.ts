// What a user may type as a target: an IP address or a DNS name.
import { isIP } from 'node:net';
import { lookup } from 'node:dns/promises';
import { badRequest } from '../http/errors.js';

const label = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/i;

export function isDnsName(text: string): boolean {
  if (text.length > 253) return false;
  const labels = text.replace(/\.$/, '').split('.');
  return labels.length > 0 && labels.every((l) => label.test(l)) && !/^\d+$/.test(labels[labels.length - 1]);
}

/** Resolves a target to {name, ip}; a DNS name that does not resolve is a 400. */
export async function resolveTarget(text: string, timeoutMs = 5000): Promise<{ name: string; ip: string }> {
  const target = text.trim();
  if (!target) throw badRequest('Enter a target name or IP address.');
  const bare = target.replace(/^\[(.*)\]$/, '$1');
  if (isIP(bare)) return { name: '', ip: bare };
  if (!isDnsName(target)) throw badRequest(`"${target}" is not an IP address or a DNS name.`);
  let timer: NodeJS.Timeout | undefined;
  try {
    const found = await Promise.race([
      lookup(target),
      new Promise<never>((_, fail) => {
        timer = setTimeout(() => fail(Object.assign(new Error('timed out'), { code: 'ETIMEOUT' })), timeoutMs);
      }),
    ]);
    return { name: target, ip: found.address };
  } catch (err) {
    throw badRequest(`Could not resolve ${target} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}).`);
  } finally {
    clearTimeout(timer);
  }
}
