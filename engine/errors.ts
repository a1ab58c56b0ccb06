// Errors the engine reports to its users, with messages a person can act on.

export const NO_RAW_SOCKET_PERMISSION =
  'Probing needs raw sockets (CAP_NET_RAW), which this process does not have. ' +
  'Run it as root, or grant the capability to Node once: ' +
  'sudo setcap cap_net_raw+ep $(readlink -f $(which node)) ' +
  '(in Docker, keep the default NET_RAW capability; do not drop it).';

export type EngineErrorCode = 'NoRawSocketPermission' | 'SocketError' | 'ResolveFailed' | 'NoRoute' | 'BadOptions';

export class EngineError extends Error {
  constructor(readonly code: EngineErrorCode, message: string) {
    super(message);
    this.name = 'EngineError';
  }
}
