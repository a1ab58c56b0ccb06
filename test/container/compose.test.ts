// compose.yaml as the one-command install: the service, its volume, port, capability,
// restart policy, health check and optional env file. (No compose binary is run here: the
// image itself is exercised by appliance-image.test.ts.)
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
    expect(service.image).toBe('hopwatch:latest');
  });

  it('keeps /data in a named volume, publishes 8080 and restarts unless stopped', () => {
    expect(service.volumes).toEqual(['hopwatch-data:/data']);
    expect(Object.keys(compose.volumes)).toEqual(['hopwatch-data']);
    expect(service.ports).toEqual(['8080:8080']);
    expect(service.restart).toBe('unless-stopped');
  });

  it('adds NET_RAW for probing and never runs privileged', () => {
    expect(service.cap_add).toEqual(['NET_RAW']);
    expect(service.privileged).toBeUndefined();
    expect(service.security_opt ?? []).not.toContain('no-new-privileges:true');
  });

  it('reads the root password from an optional hopwatch.env, never from the file itself', () => {
    expect(service.env_file).toEqual([{ path: 'hopwatch.env', required: false }]);
    expect(service.environment.HOPWATCH_ROOT_PASSWORD).toBeUndefined();
    expect(service.environment.HOPWATCH_DATA_DIR).toBe('/data');
    expect(readFileSync(resolve(repo, '.dockerignore'), 'utf8')).toMatch(/^hopwatch\.env$/m);
  });

  it('checks health on /readyz at the port the server listens on', () => {
    const test = service.healthcheck.test as string[];
    expect(test[0]).toBe('CMD');
    expect(test.join(' ')).toContain(`127.0.0.1:${service.environment.HOPWATCH_PORT}/readyz`);
    expect(service.stop_signal).toBe('SIGTERM');
  });
});
