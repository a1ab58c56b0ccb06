// bench:hub's split of the HostUpdated delay (docs/benchmarks.md "bench:hub"): the server's
// fan-out times (server/hub/fanout-probe.ts marks, read through the server's inspector) matched
// with the consoles' receipts (bench/hub-consoles.mjs) by the event's sample time.

/** p-quantile of unsorted numbers (as bench:hub has always printed them), or NaN when empty. */
export function quantiles(values) {
  const sorted = Float64Array.from(values).sort();
  const at = (p) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] : NaN);
  return { n: sorted.length, p50: at(0.5), p99: at(0.99), max: sorted.length ? sorted[sorted.length - 1] : NaN };
}

const RS = '\u001e';

/**
 * `fanouts`: the probe's marks ({ frame, connections, askedAt, firstWriteAt, lastWriteAt });
 * `receipts`: flat [sampleTime, messageAt, handledAt, ...] of every console. Each stage in ms:
 * - ingest: the round's sample time to the hub being asked to send (flush, commit, event);
 * - firstWrite / lastWrite: asked to the first / last socket write returned (per event);
 * - toMessage: asked to the console's WebSocket message event (per receipt);
 * - afterLastWrite: the server's last write to that message event (negative: heard before the
 *   server had written to everyone);
 * - parse: message event to the SignalR client's call of the handler;
 * - total: sample time to the handler (the delay bench:hub has always printed).
 */
export function hubDelaySplit(fanouts, receipts, event = 'HostUpdated') {
  const bySample = new Map();
  for (const f of fanouts) {
    const message = JSON.parse(f.frame.endsWith(RS) ? f.frame.slice(0, -1) : f.frame);
    if (message.target !== event) continue;
    bySample.set(Date.parse(message.arguments[1]), f);
  }
  const ingest = [];
  const firstWrite = [];
  const lastWrite = [];
  for (const [sample, f] of bySample) {
    if (f.connections === 0) continue;
    ingest.push(f.askedAt - sample);
    firstWrite.push(f.firstWriteAt - f.askedAt);
    lastWrite.push(f.lastWriteAt - f.askedAt);
  }
  const toMessage = [];
  const afterLastWrite = [];
  const parse = [];
  const total = [];
  let unmatched = 0;
  for (let i = 0; i + 2 < receipts.length; i += 3) {
    const sample = receipts[i];
    const messageAt = receipts[i + 1];
    const handledAt = receipts[i + 2];
    total.push(handledAt - sample);
    parse.push(handledAt - messageAt);
    const f = bySample.get(sample);
    if (!f) {
      unmatched++;
      continue;
    }
    toMessage.push(messageAt - f.askedAt);
    afterLastWrite.push(messageAt - f.lastWriteAt);
  }
  return {
    events: ingest.length,
    unmatched,
    ingest: quantiles(ingest),
    firstWrite: quantiles(firstWrite),
    lastWrite: quantiles(lastWrite),
    toMessage: quantiles(toMessage),
    afterLastWrite: quantiles(afterLastWrite),
    parse: quantiles(parse),
    total: quantiles(total),
  };
}

/** The performance mark the hub's probe leaves (server/hub/fanout-probe.ts FanoutMark). */
export const FanoutMarkName = 'hub:fanout';
