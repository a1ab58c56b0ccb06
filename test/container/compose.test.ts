// compose.yaml as the one-command install: the service, its volume, port, capability,
// restart policy, health check and settings from .env; compose.agent.yaml's agent service.
// (No compose binary is run here: compose-up.test.ts runs both with podman-compose.)
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const repo = resolve(import.meta.dirname, '../..');
const compose = parse(readFileSync(resolve(repo, 'compose.yaml'), 'utf8')) as Record<string, any>;
const service = compose.services?.hopwatch as Record<string, any>;

describe('compose.yaml', () => {
  it('builds the hopwatch service from the repository Dockerfile as hopwatch:latest', () => {
    expect(Object.keys(compose.services)).toEqual(['hopwatch']);
    expect(service.build).toBe('.');
    expect(service.image).toBe('${HOPWATCH_IMAGE:-hopwatch:latest}');
  });

  it('keeps /data in a named volume, publishes 8080 and restarts unless stopped', () => {
    expect(service.volumes).toEqual(['hopwatch-data:/data']);
    expect(Object.keys(compose.volumes)).toEqual(['hopwatch-data']);
    expect(service.ports).toEqual(['${HOPWATCH_HTTP_PORT:-8080}:8080']);
    expect(service.restart).toBe('unless-stopped');
  });

  it('adds NET_RAW for probing and never runs privileged', () => {
    expect(service.cap_add).toEqual(['NET_RAW']);
    expect(service.privileged).toBeUndefined();
    expect(service.security_opt ?? []).not.toContain('no-new-privileges:true');
  });

  it('reads the root password from .env by interpolation, never from the file itself, and has no env_file', () => {
    // env_file's path/required form stops podman-compose 1.0.3 with a TypeError (issue 17).
    expect(service.env_file).toBeUndefined();
    expect(service.environment.HOPWATCH_ROOT_PASSWORD).toBe('${HOPWATCH_ROOT_PASSWORD:-}');
    expect(service.environment.HOPWATCH_DATA_DIR).toBe('/data');
    expect(readFileSync(resolve(repo, '.dockerignore'), 'utf8')).toMatch(/^\.env$/m);
  });

  it('has an agent service example: the same image, `agent <link>`, host network, NET_RAW, state in a volume', () => {
    const agentFile = parse(readFileSync(resolve(repo, 'compose.agent.yaml'), 'utf8')) as Record<string, any>;
    const agent = agentFile.services.agent;
    expect(agent.image).toBe(service.image);
    expect(agent.command[0]).toBe('agent');
    expect(agent.command[1]).toMatch(/^\$\{HOPWATCH_AGENT_LINK:\?/);
    expect(agent.network_mode).toBe('host');
    expect(agent.cap_add).toEqual(['NET_RAW']);
    expect(agent.volumes).toEqual(['hopwatch-agent:/data']);
  });

  it('has a Kubernetes DaemonSet example with one link per node and NET_RAW only', () => {
    const ds = parse(readFileSync(resolve(repo, 'charts/examples/hopwatch-agent-daemonset.yaml'), 'utf8')) as Record<string, any>;
    expect(ds.kind).toBe('DaemonSet');
    const c = ds.spec.template.spec.containers[0];
    expect(c.args).toEqual(['agent']);
    expect(c.env.find((e: { name: string }) => e.name === 'HOPWATCH_AGENT_LINK_FILE').value).toBe('/links/$(NODE_NAME)');
    expect(c.securityContext.capabilities).toEqual({ drop: ['ALL'], add: ['NET_RAW'] });
  });

  it('checks health on /readyz at the port the server listens on', () => {
    const test = service.healthcheck.test as string[];
    expect(test[0]).toBe('CMD');
    expect(test.join(' ')).toContain(`127.0.0.1:${service.environment.HOPWATCH_PORT}/readyz`);
    expect(service.stop_signal).toBe('SIGTERM');
  });
});
