// Which certificate authorities the agent trusts for an https:// (wss://) server: the system's
// (Node's bundled roots) unless a CA file is given, for a server with a certificate of its own
// CA or a self-signed one. `setup --ca FILE` keeps a copy in the agent's state (ca.pem), so the
// service and later runs use it; HOPWATCH_AGENT_CA (a PEM file) overrides it. Verification is
// never switched off: a server whose certificate does not chain to the CA is refused.
import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { AgentState } from './state.js';

export function readCaFile(path: string): string {
  let pem: string;
  try {
    pem = readFileSync(path, 'utf8');
  } catch (err) {
    throw new Error(`The CA file ${path} could not be read: ${(err as Error).message}`);
  }
  if (!pem.includes('-----BEGIN CERTIFICATE-----')) throw new Error(`The CA file ${path} holds no PEM certificate.`);
  return pem;
}

/** The CA to verify the server with: HOPWATCH_AGENT_CA, else the one kept by setup, else none (system roots). */
export function trustedCa(state: AgentState, env: NodeJS.ProcessEnv = process.env): string | undefined {
  return env.HOPWATCH_AGENT_CA ? readCaFile(env.HOPWATCH_AGENT_CA) : state.readCa();
}

/** POSTs JSON and answers status and parsed body (the enrolment), verifying https with `ca`. */
export function postJson(url: string, body: unknown, ca?: string): Promise<{ status: number; body: unknown }> {
  const u = new URL(url);
  const text = JSON.stringify(body);
  const send = u.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((ok, fail) => {
    const req = send(
      u,
      { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }, timeout: 15_000, ...(ca ? { ca } : {}) },
      (res) => {
        let data = '';
        res.setEncoding('utf8');
        res.on('data', (d) => (data += d));
        res.on('end', () => {
          let parsed: unknown = {};
          try {
            parsed = JSON.parse(data);
          } catch {
            /* not JSON: the status says enough */
          }
          ok({ status: res.statusCode ?? 0, body: parsed });
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error('no answer within 15 s')));
    req.on('error', fail);
    req.end(text);
  });
}
