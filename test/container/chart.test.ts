// The Helm chart without helm (no helm binary here, so `helm template` is not run): values.yaml
// against values.schema.json, the templates' action syntax and block structure, named
// templates and .Values paths that exist, and the YAML skeleton of every manifest.
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { hasValuesPath, roughRender, scanTemplate } from './support/go-template.js';

const repo = resolve(import.meta.dirname, '../..');
const chartDir = join(repo, 'charts/hopwatch');
const templatesDir = join(chartDir, 'templates');
const read = (p: string) => readFileSync(p, 'utf8');

const chart = parse(read(join(chartDir, 'Chart.yaml'))) as Record<string, unknown>;
const values = parse(read(join(chartDir, 'values.yaml'))) as Record<string, any>;
const schema = JSON.parse(read(join(chartDir, 'values.schema.json')));
const templateFiles = readdirSync(templatesDir).sort();
const templates = Object.fromEntries(templateFiles.map((f) => [f, read(join(templatesDir, f))]));
const scans = Object.fromEntries(templateFiles.map((f) => [f, scanTemplate(templates[f])]));

const validate = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true }).compile(schema);
const clone = <T>(v: T): T => structuredClone(v);

/** Manifests of one template file, roughly rendered (see roughRender), as plain objects. */
function manifests(file: string): Record<string, any>[] {
  const docs = parseAllDocuments(roughRender(templates[file]), { uniqueKeys: false });
  for (const d of docs) expect(d.errors, `${file}: ${d.errors.map((e) => e.message).join('; ')}`).toEqual([]);
  return docs.map((d) => d.toJS() as Record<string, any>).filter((m) => m !== null);
}

describe('Chart.yaml', () => {
  it('is a v2 application chart with a semantic version and an appVersion', () => {
    expect(chart).toMatchObject({ apiVersion: 'v2', name: 'hopwatch', type: 'application' });
    expect(chart.version).toMatch(/^\d+\.\d+\.\d+(-[\w.]+)?$/);
    expect(typeof chart.appVersion).toBe('string');
    expect(chart.appVersion, 'the image tag defaults to the package version').toBe(
      JSON.parse(read(join(repo, 'package.json'))).version,
    );
  });
});

describe('values.yaml and values.schema.json', () => {
  it('the default values satisfy the schema', () => {
    const ok = validate(values);
    expect(validate.errors ?? [], JSON.stringify(validate.errors)).toEqual([]);
    expect(ok).toBe(true);
  });

  it.each([
    ['a replica count (one DuckDB writer only)', (v: any) => (v.replicaCount = 2)],
    ['a data size that is not a quantity', (v: any) => (v.persistence.size = 'lots')],
    ['a service port out of range', (v: any) => (v.service.port = 70000)],
    ['an unknown service type', (v: any) => (v.service.type = 'ExternalName')],
    ['capabilities without NET_RAW', (v: any) => (v.securityContext.capabilities.add = [])],
    ['capabilities not dropping ALL', (v: any) => (v.securityContext.capabilities.drop = ['MKNOD'])],
    ['no_new_privs (the file capability would be ignored)', (v: any) => (v.securityContext.allowPrivilegeEscalation = false)],
    ['running as root allowed', (v: any) => (v.podSecurityContext.runAsNonRoot = false)],
    ['an ingress path without pathType', (v: any) => delete v.ingress.hosts[0].paths[0].pathType],
    ['an environment variable with a bad name', (v: any) => (v.extraEnv = { 'not a name': 'x' })],
    ['a typo in a top-level key', (v: any) => (v.persistance = { size: '1Gi' })],
  ])('the schema rejects %s', (_what, change) => {
    const v = clone(values);
    change(v);
    expect(validate(v)).toBe(false);
  });

  it('the non-root user matches the image (uid 10001 in the Dockerfile)', () => {
    const dockerfile = read(join(repo, 'Dockerfile'));
    const uid = /useradd[^\n]*--uid (\d+)/.exec(dockerfile)?.[1];
    expect(uid).toBeDefined();
    expect(values.podSecurityContext.runAsUser).toBe(Number(uid));
    expect(values.podSecurityContext.fsGroup).toBe(Number(uid));
  });
});

describe('templates', () => {
  const defines = Object.values(scans).flatMap((s) => s.defines);

  it.each(templateFiles)('%s: actions are well formed and blocks are closed', (file) => {
    expect(scans[file].problems).toEqual([]);
    expect(scans[file].actions.length).toBeGreaterThan(0);
  });

  it.each(templateFiles)('%s: includes only named templates defined in the chart', (file) => {
    for (const name of scans[file].includes) expect(defines, `include "${name}"`).toContain(name);
  });

  it.each(templateFiles)('%s: reads only .Values paths that values.yaml declares', (file) => {
    for (const path of scans[file].valuesPaths) expect(hasValuesPath(values, path), `.Values.${path.join('.')}`).toBe(true);
  });

  it.each(templateFiles.filter((f) => f.endsWith('.yaml')))('%s: renders to Kubernetes manifests', (file) => {
    const docs = manifests(file);
    expect(docs.length).toBeGreaterThan(0);
    for (const m of docs) {
      expect(typeof m.apiVersion).toBe('string');
      expect(typeof m.kind).toBe('string');
      expect(m.metadata?.name).toBeTruthy();
    }
  });

  it('the StatefulSet runs exactly one replica with a volume claim template mounted at /data', () => {
    const [sts] = manifests('statefulset.yaml');
    expect(sts.kind).toBe('StatefulSet');
    expect(sts.spec.replicas).toBe(1);
    expect(sts.spec.volumeClaimTemplates.map((t: any) => t.metadata.name)).toEqual(['data']);
    const container = sts.spec.template.spec.containers[0];
    expect(container.volumeMounts).toContainEqual({ name: 'data', mountPath: '/data' });
    expect(container.ports).toContainEqual({ name: 'http', containerPort: 8080, protocol: 'TCP' });
    expect(container.livenessProbe.httpGet.path).toBe('/healthz');
    expect(container.readinessProbe.httpGet.path).toBe('/readyz');
    const env = Object.fromEntries(container.env.map((e: any) => [e.name, e]));
    expect(env.HOPWATCH_DATA_DIR.value).toBe('/data');
    expect(env.HOPWATCH_PORT.value).toBe('8080');
    expect(env.HOPWATCH_ROOT_PASSWORD.valueFrom.secretKeyRef).toBeDefined();
  });

  it('the container and pod security contexts come from the values checked above', () => {
    const sts = templates['statefulset.yaml'];
    expect(sts).toMatch(/^ {6}securityContext:\n\s+\{\{- toYaml \.Values\.podSecurityContext \| nindent 8 \}\}/m);
    expect(sts).toMatch(/^ {10}securityContext:\n\s+\{\{- toYaml \.Values\.securityContext \| nindent 12 \}\}/m);
    expect(values.securityContext.capabilities).toEqual({ drop: ['ALL'], add: ['NET_RAW'] });
    expect(values.podSecurityContext.runAsNonRoot).toBe(true);
  });

  it('the Secret is only made when no existing secret is named, and the Ingress only when enabled', () => {
    expect(templates['secret.yaml']).toMatch(/^\{\{- if not \.Values\.existingSecret \}\}/);
    expect(templates['ingress.yaml']).toMatch(/^\{\{- if \.Values\.ingress\.enabled \}\}/);
    const [secret] = manifests('secret.yaml');
    expect(secret.kind).toBe('Secret');
    expect(Object.keys(secret.data)).toEqual(['root-password']);
  });

  it('HOPWATCH_DATABASE_URL comes from database.existingSecret or database.url, and only a postgres:// URL passes the schema (issue 42)', () => {
    const t = templates['statefulset.yaml'];
    expect(t).toMatch(/\{\{- if \.Values\.database\.existingSecret \}\}\s+- name: HOPWATCH_DATABASE_URL\s+valueFrom:\s+secretKeyRef:/);
    expect(t).toMatch(/\{\{- else if \.Values\.database\.url \}\}\s+- name: HOPWATCH_DATABASE_URL\s+value: \{\{ \.Values\.database\.url \| quote \}\}/);
    expect(values.database).toEqual({ url: '', existingSecret: '', existingSecretKey: 'database-url' });
    const v = clone(values);
    v.database.url = 'postgres://hopwatch@db:5432/hopwatch';
    expect(validate(v)).toBe(true);
    v.database.url = 'mysql://db/hopwatch';
    expect(validate(v)).toBe(false);
  });

  it('the agent DaemonSet is made only when enabled, selects its own pods, and is ready while the link is up', () => {
    expect(templates['agent-daemonset.yaml']).toMatch(/^\{\{- if \.Values\.agents\.enabled \}\}/);
    expect(values.agents.enabled).toBe(false);
    const [ds] = manifests('agent-daemonset.yaml');
    expect(ds.kind).toBe('DaemonSet');
    // Not the server's selector labels: the server's Services must never pick an agent pod.
    expect(templates['agent-daemonset.yaml']).not.toContain('hopwatch.selectorLabels');
    expect(templates['_helpers.tpl']).toMatch(/define "hopwatch\.agentSelectorLabels"[\s\S]*?app\.kubernetes\.io\/name: \{\{ include "hopwatch\.name" \. \}\}-agent/);
    const pod = ds.spec.template.spec;
    const agent = pod.containers[0];
    expect(agent.args).toEqual(['agent']);
    expect(agent.readinessProbe.exec.command).toEqual(['/usr/local/bin/hopwatch-entrypoint', 'health']);
    expect(agent.livenessProbe).toBeUndefined();
    const env = Object.fromEntries(agent.env.map((e: any) => [e.name, e]));
    expect(env.NODE_NAME.valueFrom.fieldRef.fieldPath).toBe('spec.nodeName');
    expect(env.HOPWATCH_AGENT_LINK_FILE.value).toBe('/links/$(NODE_NAME)');
    expect(agent.volumeMounts).toEqual([
      { name: 'state', mountPath: '/data' },
      { name: 'links', mountPath: '/links', readOnly: true },
    ]);
    expect(pod.volumes.map((v: any) => v.name)).toEqual(['state', 'links']);
    expect(pod.volumes[0].hostPath.type).toBe('DirectoryOrCreate');
    expect(templates['agent-daemonset.yaml']).toMatch(/^ {10}securityContext:\n\s+\{\{- toYaml \.Values\.securityContext \| nindent 12 \}\}/m);
    const on = clone(values);
    on.agents.enabled = true;
    expect(validate(on), JSON.stringify(validate.errors)).toBe(true);
    on.agents.stateHostPath = 'relative/path';
    expect(validate(on)).toBe(false);
  });

  it('the Services select the pod by the selector labels and target the named port', () => {
    const services = manifests('service.yaml');
    expect(services.map((s) => s.kind)).toEqual(['Service', 'Service']);
    expect(services[1].spec.clusterIP).toBe('None');
    for (const s of services) expect(s.spec.ports[0].targetPort).toBe('http');
    expect(templates['statefulset.yaml']).toMatch(/serviceName: \{\{ include "hopwatch\.fullname" \. \}\}-headless/);
  });
});
