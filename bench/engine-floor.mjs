// Part of npm run bench:engine: the CPU floor of the engine's shape, for the same trace as the
// CPU figure (a round of 4 probes every 20 ms). A bare worker thread, through the same rawsock
// addon, sends 4 ICMP echo probes (TTL 1..4) per timer tick and reads the replies; with
// `message`, it also posts one small message per round to the main thread (the least a
// round event on the main thread costs). No matching, no path state, no events.
// Usage: node bench/engine-floor.mjs TARGET_IPV4 ADDON_PATH; prints one JSON line.
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { createRequire } from 'node:module';

const ROUNDS = 300;
const INTERVAL_MS = 20;

async function measure(target, addonPath, message) {
  const w = new Worker(new URL(import.meta.url), { workerData: { target, addonPath, message } });
  let count = 0;
  if (message) w.on('message', () => { count++; });
  await new Promise((r) => setTimeout(r, 10 * INTERVAL_MS)); // warm up
  const c0 = process.cpuUsage();
  await new Promise((r) => setTimeout(r, ROUNDS * INTERVAL_MS));
  const c = process.cpuUsage(c0);
  await w.terminate();
  // Rounds are ticks of the worker's timer: ROUNDS in the window, give or take one.
  return ((c.user + c.system) / 1e6 / (ROUNDS * 4)) * 1000;
}

function probeLoop({ target, addonPath, message }) {
  const addon = createRequire(import.meta.url)(addonPath);
  const sender = addon.open(4, 255);
  const receiver = addon.open(4, 1);
  // The addon's receive batches: up to 32 datagrams of 2048 bytes, lengths/times, senders.
  addon.receive(receiver, Buffer.alloc(32 * 2048), new Float64Array(64), Buffer.alloc(32 * 16), () => {});
  const pkt = Buffer.alloc(56);
  const dst = target.split('.').map(Number);
  let seq = 1;
  const build = (ttl) => {
    pkt.fill(0);
    pkt[0] = 0x45; pkt.writeUInt16BE(56, 2); pkt[6] = 0x40; pkt[8] = ttl; pkt[9] = 1;
    for (let i = 0; i < 4; i++) pkt[16 + i] = dst[i];
    pkt[20] = 8; pkt.writeUInt16BE(0x7e57, 24); pkt.writeUInt16BE(seq++ & 0xffff, 26);
    let sum = 0;
    for (let i = 20; i < 56; i += 2) sum += pkt.readUInt16BE(i);
    while (sum > 0xffff) sum = (sum & 0xffff) + (sum >>> 16);
    pkt.writeUInt16BE(~sum & 0xffff, 22);
  };
  const tick = () => {
    for (let ttl = 1; ttl <= 4; ttl++) { build(ttl); addon.send(sender, pkt, 56, target); }
    if (message) setImmediate(() => parentPort.postMessage({ hops: [1, 2, 3, 4] }));
    setTimeout(tick, INTERVAL_MS);
  };
  tick();
}

if (isMainThread) {
  const [target, addonPath] = process.argv.slice(2);
  const workerOnly = await measure(target, addonPath, false);
  const withMessage = await measure(target, addonPath, true);
  console.log(JSON.stringify({ workerOnly, withMessage }));
} else {
  probeLoop(workerData);
}
