// Flow ids: the ICMP identifier or UDP/TCP source port of a trace, constant for its lifetime
// and unique among the live traces of this process, so replies never mix between traces.
// Taken above Linux's ephemeral port range (32768-60999) to stay clear of real sockets.
const FIRST = 61000;
const LAST = 65535;
const inUse = new Set<number>();
let next = FIRST + Math.floor(Math.random() * (LAST - FIRST + 1));

export function allocateFlowId(): number {
  for (let i = 0; i <= LAST - FIRST; i++) {
    const id = next;
    next = next === LAST ? FIRST : next + 1;
    if (!inUse.has(id)) {
      inUse.add(id);
      return id;
    }
  }
  throw new Error(`More than ${LAST - FIRST + 1} traces at once`);
}

export function releaseFlowId(id: number): void {
  inUse.delete(id);
}
