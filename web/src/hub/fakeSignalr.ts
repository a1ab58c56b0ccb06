// A stand-in for @microsoft/signalr in the hub connection's unit tests (vi.mock's factory
// returns this module): it records the options each connection is built with and, in
// `events`, each start and invoke, so a test can set them against what else happened.
export const built: { options: { accessTokenFactory?: () => Promise<string> } }[] = [];
export const events: string[] = [];
/** What an invoke answers, set by a test (default: nothing); each invoke is recorded in `events`. */
export const answers: { invoke?: (method: string, ...args: unknown[]) => Promise<unknown> } = {};

/** Every connection built, newest last (a test fires a reconnect on one with `reconnected()`). */
export const connections: FakeConnection[] = [];

class FakeConnection {
  state = 'Disconnected';
  private reconnectedHandlers: (() => void)[] = [];
  on() {}
  onclose() {}
  onreconnecting() {}
  onreconnected(handler: () => void) {
    this.reconnectedHandlers.push(handler);
  }
  /** What the automatic reconnect does once it is connected again. */
  reconnected() {
    for (const h of this.reconnectedHandlers) h();
  }
  async start() {
    events.push('start');
    this.state = 'Connected';
  }
  async invoke(method: string, ...args: unknown[]) {
    events.push(`invoke ${method}`);
    return answers.invoke?.(method, ...args);
  }
  async stop() {
    this.state = 'Disconnected';
  }
}

export class HubConnectionBuilder {
  private options = {};
  withUrl(_url: string, options: object = {}) {
    this.options = options;
    return this;
  }
  withAutomaticReconnect() {
    return this;
  }
  configureLogging() {
    return this;
  }
  build() {
    built.push({ options: this.options });
    const c = new FakeConnection();
    connections.push(c);
    return c;
  }
}

export const HubConnectionState = { Connected: 'Connected', Disconnected: 'Disconnected' };
export const LogLevel = { Warning: 3 };
