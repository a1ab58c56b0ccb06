// WebSockets transport: text frames both ways; the send buffer is the socket's
// bufferedAmount, so a client that stops reading is dropped instead of growing memory.
import type { Socket } from 'node:net';
import type { WebSocket } from 'ws';
import type { Transport } from './transport.js';

/** What direct writes read of ws's own socket: the TCP stream under it and its libuv handle. */
type Underlying = Socket & { encrypted?: boolean; _handle?: { fd?: number; writeQueueSize?: number } | null };

/** After a close frame is sent, a client gets this long to answer before the socket is cut. */
const CLOSE_GRACE_MS = 2_000;

export class WebSocketTransport implements Transport {
  readonly name = 'WebSockets' as const;
  readonly inherentKeepAlive = false;

  constructor(
    private readonly socket: WebSocket,
    private readonly maxBufferedBytes: number,
  ) {}

  send(text: string, bytes: number, encoded?: Buffer): boolean {
    if (this.socket.readyState !== this.socket.OPEN) return true; // closing: nothing more goes out
    if (this.socket.bufferedAmount + bytes > this.maxBufferedBytes) return false;
    // A text frame either way (the JSON hub protocol's), the bytes not copied.
    if (encoded) this.socket.send(encoded, { binary: false });
    else this.socket.send(text);
    return true;
  }

  directFd(bytes: number): number {
    const socket = this.socket;
    if (socket.readyState !== socket.OPEN || socket.bufferedAmount !== 0 || bytes > this.maxBufferedBytes) return -1;
    // ws's own field: the TCP socket it writes frames to (ws 8). A TLS socket's descriptor
    // carries records, never a plain frame; compression (never negotiated here) changes frames.
    const tcp = (socket as unknown as { _socket?: Underlying })._socket;
    if (!tcp || tcp.encrypted || socket.extensions !== '') return -1;
    const handle = tcp._handle;
    if (!handle || handle.writeQueueSize !== 0 || tcp.writableLength !== 0) return -1;
    return typeof handle.fd === 'number' && handle.fd >= 0 ? handle.fd : -1;
  }

  afterDirect(written: number, frame: Buffer): void {
    // Part of the frame is out: the rest goes next on the same stream, before any later frame.
    if (written < frame.length) (this.socket as unknown as { _socket: Underlying })._socket.write(frame.subarray(written));
  }

  end(reason: 'normal' | 'error'): void {
    if (this.socket.readyState === this.socket.CLOSED) return;
    if (this.socket.readyState === this.socket.OPEN) {
      // 1008 (policy violation) tells a raw client it misbehaved; the hub client reads the Close frame first.
      this.socket.close(reason === 'normal' ? 1000 : 1008);
    }
    setTimeout(() => this.socket.terminate(), CLOSE_GRACE_MS).unref();
  }

  discardPending(): void {
    // Bytes already handed to the socket cannot be recalled; end() cuts the socket soon after.
  }

  isActive(): boolean {
    return this.socket.readyState === this.socket.OPEN;
  }
}
