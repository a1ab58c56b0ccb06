// Long Polling transport (server-to-client half; the client sends with POST): frames wait
// in a bounded queue until the client's next poll takes them all.
import type { Transport } from './transport.js';

export interface PollAnswer {
  status: 200 | 204;
  body: string;
}

interface PendingPoll {
  answer(result: PollAnswer): void;
  timer: NodeJS.Timeout;
}

export class LongPollingTransport implements Transport {
  readonly name = 'LongPolling' as const;
  readonly inherentKeepAlive = true;
  private queue: string[] = [];
  private queuedBytes = 0;
  private pending: PendingPoll | undefined;
  private flushScheduled = false;
  private polled = false;
  private ended = false;
  private lastPollAt = Date.now();

  constructor(
    private readonly maxBufferedBytes: number,
    private readonly pollTimeoutMs: number,
    /** Called once the transport has ended and has nothing left for the client. */
    private readonly onDrained: () => void,
  ) {}

  /** Frames queued and not yet taken by a poll (after end(): the Close frame). */
  get hasUndelivered(): boolean {
    return this.queue.length > 0;
  }

  /**
   * Answers a GET poll. The first poll answers at once (the client's connect step); later
   * ones wait for frames, up to pollTimeoutMs. A newer poll ends an older one with 204.
   */
  poll(): { answer: Promise<PollAnswer>; cancel(): void } {
    this.lastPollAt = Date.now();
    if (!this.polled && !this.ended) {
      this.polled = true;
      return { answer: Promise.resolve({ status: 200, body: '' }), cancel() {} };
    }
    this.answerPending({ status: 204, body: '' });
    if (this.queue.length > 0 || this.ended) {
      const result = this.takeAll();
      return { answer: Promise.resolve(result), cancel() {} };
    }
    let pending!: PendingPoll;
    const answer = new Promise<PollAnswer>((resolve) => {
      pending = {
        answer: resolve,
        timer: setTimeout(() => this.answerPending({ status: 200, body: '' }), this.pollTimeoutMs),
      };
    });
    this.pending = pending;
    return {
      answer,
      // The client gave up on this poll (aborted, disconnected): frames stay queued for the
      // next one, and the abandoned answer settles empty so nothing waits on it forever.
      cancel: () => {
        if (this.pending === pending) this.answerPending({ status: 204, body: '' });
      },
    };
  }

  private answerPending(result: PollAnswer): void {
    const pending = this.pending;
    if (!pending) return;
    this.pending = undefined;
    clearTimeout(pending.timer);
    this.lastPollAt = Date.now();
    pending.answer(result);
  }

  private takeAll(): PollAnswer {
    if (this.queue.length === 0) {
      if (this.ended) this.onDrained();
      return { status: this.ended ? 204 : 200, body: '' };
    }
    const body = this.queue.join('');
    this.queue = [];
    this.queuedBytes = 0;
    return { status: 200, body };
  }

  send(text: string, bytes: number): boolean {
    if (this.ended) return true;
    if (this.queuedBytes + bytes > this.maxBufferedBytes) return false;
    this.queue.push(text);
    this.queuedBytes += bytes;
    // Frames sent in the same turn of the event loop go out in one poll answer.
    if (this.pending && !this.flushScheduled) {
      this.flushScheduled = true;
      setImmediate(() => {
        this.flushScheduled = false;
        if (this.pending && this.queue.length > 0) this.answerPending(this.takeAll());
      });
    }
    return true;
  }

  end(): void {
    if (this.ended) return;
    this.ended = true;
    if (this.pending) this.answerPending(this.takeAll());
    else if (this.queue.length === 0) this.onDrained();
  }

  discardPending(): void {
    this.queue = [];
    this.queuedBytes = 0;
  }

  isActive(now: number, idleLimitMs: number): boolean {
    return this.pending !== undefined || now - this.lastPollAt < idleLimitMs;
  }
}
