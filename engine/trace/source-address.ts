// The source address of probes to a destination: the probe packets carry our own IP header,
// and UDP, TCP and ICMPv6 checksums cover it. A connected UDP socket asks the routing table
// without sending anything; a chosen interface gives its own address.
import dgram from 'node:dgram';
import os from 'node:os';
import { canonicalAddress } from '../codec/address.js';
import { EngineError } from '../errors.js';

export async function sourceAddressFor(destination: string, family: 4 | 6, sourceInterface: string | null): Promise<string> {
  if (sourceInterface) {
    const addrs = os.networkInterfaces()[sourceInterface];
    if (!addrs) throw new EngineError('BadOptions', `Network interface ${sourceInterface} does not exist`);
    const fit = addrs.find((a) => (family === 4 ? a.family === 'IPv4' : a.family === 'IPv6' && !a.address.startsWith('fe80')));
    if (!fit) throw new EngineError('NoRoute', `Network interface ${sourceInterface} has no IPv${family} address`);
    return canonicalAddress(fit.address)!;
  }
  const sock = dgram.createSocket(family === 4 ? 'udp4' : 'udp6');
  try {
    await new Promise<void>((resolve, reject) => {
      sock.once('error', reject);
      sock.connect(9, destination, () => resolve());
    });
    return canonicalAddress(sock.address().address)!;
  } catch (err) {
    throw new EngineError('NoRoute', `No route to ${destination}: ${err instanceof Error ? err.message : String(err)}`);
  } finally {
    sock.close();
  }
}
