// TLS (issue 17): the server speaks HTTPS when given HOPWATCH_TLS_CERT / HOPWATCH_TLS_KEY, and
// the agent verifies it: `setup --ca FILE` trusts a CA of our own (kept in the agent's state
// for later runs), while without it, or with another CA, the agent refuses the server. The
// certificates are made here with openssl (a CA, and a server certificate for 127.0.0.1 it
// signs). The agent enrols over https, joins over wss and delivers rounds. Simulated engine.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppliance, type Appliance } from '../support/appliance.js';
import type { Agent, AgentDownloadLink } from '../../server/contract/agents.js';
import { startAgent, waitFor, type AgentProcess } from './support.js';

const password = 'Agent-tls-pw-1';

function openssl(dir: string, ...args: string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
}

/** A CA (ca.pem, ca.key) in dir; with `server`, a certificate for 127.0.0.1 and localhost it signs. */
function makeCa(dir: string, name: string): void {
  openssl(dir, 'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', `${name}.key`, '-out', `${name}.pem`, '-days', '2', '-subj', `/CN=${name}`);
}

function makeServerCert(dir: string, ca: string): void {
  openssl(dir, 'req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=127.0.0.1');
  writeFileSync(join(dir, 'san.cnf'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
  openssl(dir, 'x509', '-req', '-in', 'server.csr', '-CA', `${ca}.pem`, '-CAkey', `${ca}.key`, '-CAcreateserial', '-out', 'server.pem', '-days', '2', '-extfile', 'san.cnf');
}

describe('the agent over TLS', () => {
  let dir: string;
  let app: Appliance;
  let ca: string;
  let cookie = '';
  const agents: AgentProcess[] = [];

  /** A call over https verified with the test CA (fetch takes no CA). */
  function call<T>(method: string, path: string, json?: unknown): Promise<{ status: number; body: T; setCookie: string[] }> {
    return new Promise((ok, fail) => {
      const text = json === undefined ? undefined : JSON.stringify(json);
      const req = request(
        `${app.url}${path}`,
        { method, ca, headers: { cookie, ...(text ? { 'content-type': 'application/json' } : {}) } },
        (res) => {
          let data = '';
          res.on('data', (d) => (data += d));
          res.on('end', () => ok({ status: res.statusCode ?? 0, body: (data ? JSON.parse(data) : null) as T, setCookie: res.headers['set-cookie'] ?? [] }));
        },
      );
      req.on('error', fail);
      req.end(text);
    });
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'hopwatch-tls-'));
    makeCa(dir, 'test-ca');
    makeCa(dir, 'other-ca');
    makeServerCert(dir, 'test-ca');
    ca = readFileSync(join(dir, 'test-ca.pem'), 'utf8');
    app = await startAppliance({
      env: { HOPWATCH_ROOT_PASSWORD: password, HOPWATCH_ENGINE: 'simulated', HOPWATCH_TLS_CERT: join(dir, 'server.pem'), HOPWATCH_TLS_KEY: join(dir, 'server.key') },
      tlsCa: ca,
    });
    const login = await call('POST', '/api/Account/Login', { Username: 'admin', Password: password, RememberMe: false });
    expect(login.status).toBe(200);
    cookie = login.setCookie.map((c) => c.split(';')[0]).join('; ');
    // The session cookie is Secure over TLS.
    expect(login.setCookie.join('\n')).toMatch(/;\s*Secure/i);
  });

  afterAll(async () => {
    for (const a of agents) await a.dispose();
    await app?.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves https only, and says so when it starts', async () => {
    expect(app.url.startsWith('https://')).toBe(true);
    expect(app.output()).toContain(`listening on https://`);
    // Plain HTTP on the same port gets no Hopwatch answer.
    const plain = await fetch(app.url.replace('https', 'http') + '/readyz').then((r) => r.status, () => 0);
    expect(plain).not.toBe(200);
  });

  it('refuses half a configuration', () => {
    const r = (() => {
      try {
        execFileSync(process.execPath, [join(import.meta.dirname, '../../dist/server/main.js')], {
          env: { ...process.env, HOPWATCH_TLS_CERT: join(dir, 'server.pem'), HOPWATCH_TLS_KEY: '', HOPWATCH_DATA_DIR: join(dir, 'never') },
          stdio: 'pipe',
        });
        return '';
      } catch (err) {
        return String((err as { stderr: Buffer }).stderr);
      }
    })();
    expect(r).toContain('HOPWATCH_TLS_CERT and HOPWATCH_TLS_KEY go together');
  });

  it('enrols and links over TLS only with the right CA, and keeps the CA for later runs', async () => {
    const agent = (await call<Agent>('GET', `/cmd/createAgent?name=${encodeURIComponent('TLS branch')}`)).body;
    const link = (await call<AgentDownloadLink>('GET', `/cmd/download-link/${agent.ID}`)).body;
    expect(link.SetupLink).toContain(encodeURIComponent(app.url));
    const env = { HOPWATCH_ENGINE: 'simulated' };

    // No CA: the system roots do not know ours. Another CA: refused too. The key stays unspent.
    const bare = startAgent(['setup', '--no-run', link.SetupLink], { env });
    agents.push(bare);
    expect(await bare.exited).toBe(1);
    expect(bare.output()).toMatch(/could not be reached: .*(self-signed|unable to verify|certificate)/i);
    const other = startAgent(['setup', '--no-run', '--ca', join(dir, 'other-ca.pem'), link.SetupLink], { env });
    agents.push(other);
    expect(await other.exited).toBe(1);
    expect(other.output()).toMatch(/could not be reached: .*(self-signed|unable to verify|certificate)/i);

    const good = startAgent(['setup', '--ca', join(dir, 'test-ca.pem'), link.SetupLink], { env });
    agents.push(good);
    await waitFor('the agent ONLINE over wss', async () => (await call<Agent[]>('GET', '/cmd/getagentlist')).body.find((a) => a.ID === agent.ID && a.IsOnline), 30_000);
    expect(good.output()).toContain(`connected to ${app.url}`);
    expect(existsSync(join(good.dir, 'ca.pem'))).toBe(true);

    const started = await call<{ ID: number }>('GET', `/cmd/newtarget?target=127.0.0.1&traceInterval=1&agentID=${agent.ID}`);
    expect(started.status).toBe(200);
    const id = started.body.ID;
    await waitFor('rounds stored', async () => (await call<{ SessionID: number; SampleCount: number }[]>('GET', '/api/Sessions')).body.find((s) => s.SessionID === id && s.SampleCount >= 2), 30_000);

    // A later run (as the service does) trusts the kept CA without --ca.
    await good.stop();
    await waitFor('the agent OFFLINE', async () => (await call<Agent[]>('GET', '/cmd/getagentlist')).body.find((a) => a.ID === agent.ID && !a.IsOnline), 30_000);
    const again = startAgent(['run'], { env, dir: good.dir });
    agents.push(again);
    await waitFor('the agent ONLINE again', async () => (await call<Agent[]>('GET', '/cmd/getagentlist')).body.find((a) => a.ID === agent.ID && a.IsOnline), 30_000);
    expect(again.output()).not.toMatch(/agent link: /);
  }, 120_000);
});
