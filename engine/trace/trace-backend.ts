// What a trace session needs besides its options: the link that runs its rounds, the source
// address toward a destination, and the wall clock of its marker rounds. The raw backend is
// the probe worker and the kernel's routing; the simulated engine brings its own.
import { rawLink, type RoundsLink } from './probe-pool.js';
import { sourceAddressFor } from './source-address.js';

export interface TraceBackend {
  readonly link: Pick<RoundsLink, 'startTraceRounds' | 'sendTraceCommand' | 'stopTraceRounds' | 'traceWaiting'>;
  sourceAddressFor(destination: string, family: 4 | 6, sourceInterface: string | null): Promise<string>;
  wallMs(): number;
}

export const rawBackend: TraceBackend = { link: rawLink, sourceAddressFor, wallMs: () => Date.now() };
