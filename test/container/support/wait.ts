// What the container suites wait on: a condition polled until it holds, and a report of the
// containers (states and last log lines) for the message when it never does.
import { expect } from 'vitest';
import type { Podman } from './podman.js';

/** Polls fn every 500 ms until it returns a value (errors count as not yet); throws with report() after timeoutMs. */
export async function until<T>(what: string, fn: () => Promise<T | undefined>, report: () => Promise<string>, timeoutMs = 120_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn().catch(() => undefined);
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\n${await report()}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** `podman ps -a` of the containers whose names the filter keeps, with their last log lines. */
export async function containerReport(podman: Podman, keep: (name: string) => boolean, tail = 40): Promise<string> {
  const ps = await podman.run(['ps', '-a', '--format', '{{.Names}} {{.Status}}']);
  const names = ps.stdout.split('\n').map((l) => l.split(' ')[0]).filter((n) => n && keep(n));
  const logs = await Promise.all(names.map(async (n) => {
    const l = await podman.run(['logs', '--tail', String(tail), n]);
    return `--- ${n}\n${l.stdout}${l.stderr}`;
  }));
  return `${ps.stdout}\n${logs.join('\n')}`;
}

/** The console's page as served at url: HTML with the root element, and the bundle it names. */
export async function expectConsoleServed(url: string, page: Response): Promise<void> {
  expect(page.status).toBe(200);
  expect(page.headers.get('content-type')).toMatch(/text\/html/);
  const html = await page.text();
  expect(html).toContain('<div id="root">');
  const script = /<script[^>]+src="([^"]+\.js)"/.exec(html)?.[1];
  expect(script, 'the built console references its bundle').toBeDefined();
  const bundle = await fetch(new URL(script!, url));
  expect(bundle.status).toBe(200);
  expect(bundle.headers.get('content-type')).toMatch(/javascript/);
}
