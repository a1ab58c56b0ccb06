// Watches the free space of the data volume: a log line when it is 90% full, and at 98% ingest
// pauses (IngestPipeline.pauseFor) with an error that says why, until space is freed (below
// 97%, so that it does not flap at the edge). DuckDB grows its file while appending; a write
// that fails for want of space fails the transaction, so stopping early keeps the file whole.
import type { VolumeSpace } from './disk-use.js';
import { StoragePausePercent as PausePercent, StorageResumePercent as ResumePercent, StorageWarnPercent as WarnPercent } from '../contract/storage.js';

export interface VolumeWatchOptions {
  path: string;
  volume: (path: string) => Promise<VolumeSpace>;
  log: { warn(obj: object, msg: string): void; info(obj: object, msg: string): void; error(obj: object, msg: string): void };
  /** Called with the reason to pause, or undefined to resume. */
  pause: (reason: string | undefined) => void;
}

/** One look at the volume; answers the state to carry to the next look. */
export async function checkVolume(o: VolumeWatchOptions, state: { warned: boolean; paused: boolean }): Promise<{ warned: boolean; paused: boolean }> {
  const v = await o.volume(o.path);
  const used = v.totalBytes ? (1 - v.freeBytes / v.totalBytes) * 100 : 0;
  const at = { usedPercent: Math.round(used * 10) / 10, freeBytes: v.freeBytes, path: o.path };
  const next = { ...state };
  if (used >= WarnPercent && !state.warned) {
    o.log.warn(at, `storage: the data volume is ${at.usedPercent}% full; ingest pauses at ${PausePercent}% (shorter retention or more space: docs/store.md "Retention")`);
    next.warned = true;
  } else if (used < WarnPercent - 1) next.warned = false;
  if (used >= PausePercent && !state.paused) {
    o.pause(`Ingest is paused: the data volume is ${at.usedPercent}% full (${PausePercent}% or more). Free space on it to resume.`);
    o.log.error(at, 'storage: ingest paused, the data volume is full');
    next.paused = true;
  } else if (used < ResumePercent && state.paused) {
    o.pause(undefined);
    o.log.info(at, 'storage: ingest resumed, space was freed');
    next.paused = false;
  }
  return next;
}

/** Looks every `everyMs` (and at once); the answer stops it. */
export function watchVolume(o: VolumeWatchOptions, everyMs = 30_000): () => void {
  let state = { warned: false, paused: false };
  let busy = false;
  const look = async () => {
    if (busy) return;
    busy = true;
    try {
      state = await checkVolume(o, state);
    } catch (err) {
      o.log.error({ err }, 'storage: could not read the free space of the data volume');
    } finally {
      busy = false;
    }
  };
  void look();
  const timer = setInterval(() => void look(), everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
