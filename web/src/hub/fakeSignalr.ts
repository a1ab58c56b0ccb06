// A stand-in for @microsoft/signalr in the hub connection's unit tests (vi.mock's factory
// returns this module): it records the options each connection is built with and, in
// `events`, each start and invoke, so a test can set them against what else happened.
export const built: { options: { accessTokenFactory?: () => Promise<string> } }[] = [];
export const events: string[] = [];
/** What an invoke answers, set by a test (default: nothing); each invoke is recorded in `events`. */
export const answers: { invoke?: (method: string, ...args: unknown[]) => Promise<unknown> } = {};

class FakeConnection {
  state = 'Disconnected';
  on() {}
  onclose() {}
  onreconnecting() {}
  onreconnected() {}
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
    return new FakeConnection();
  }
}

export const HubConnectionState = { Connected: 'Connected', Disconnected: 'Disconnected' };
export const LogLevel = { Warning: 3 };
