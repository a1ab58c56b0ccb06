// The Helm chart without helm (no helm binary here, so `helm template` is not run): values.yaml
// against values.schema.json, the templates' action syntax and block structure, named
// templates and .Values paths that exist, the YAML skeleton of every manifest, and the objects
// each mode renders to (support/helm-render.ts: Go templates with the chart's functions): the
// embedded single-replica StatefulSet (the default) and the cluster on PostgreSQL and Redis.
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { hasValuesPath, roughRender, scanTemplate } from './support/go-template.js';
import { renderChart } from './support/helm-render.js';

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

/** The cluster values of docs/deploy.md "Running a cluster". */
const cluster = {
  replicaCount: 3,
  database: { existingSecret: 'hw-db' },
  redis: { url: 'redis://redis.hw.svc:6379' },
};
/** The workload of a render: the Deployment in the cluster, else the StatefulSet. */
const workload = (r: ReturnType<typeof renderChart>) => (r.find('Deployment') ?? r.find('StatefulSet'))!;
const envOf = (w: Record<string, any>): Record<string, any> => Object.fromEntries(w.spec.template.spec.containers[0].env.map((e: any) => [e.name, e]));
const mergeForSchema = (o: Record<string, any>) => {
  const v = structuredClone(values);
  for (const [k, val] of Object.entries(o)) v[k] = typeof val === 'object' ? { ...v[k], ...val } : val;
  return v;
};

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
    ['a replica count above 1 without PostgreSQL and Redis (one DuckDB writer only)', (v: any) => (v.replicaCount = 2)],
    ['a replica count above 1 with PostgreSQL but no Redis', (v: any) => Object.assign(v, { replicaCount: 3, database: { ...v.database, url: 'postgres://hw@db/hw' } })],
    ['a replica count above 1 with Redis but no PostgreSQL', (v: any) => Object.assign(v, { replicaCount: 3, redis: { ...v.redis, existingSecret: 'hw-redis' } })],
    ['a Redis URL that is not redis:// or rediss://', (v: any) => (v.redis.url = 'http://redis:6379')],
    ['no replica at all', (v: any) => (v.replicaCount = 0)],
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
    const sts = renderChart(chartDir).find('StatefulSet')!;
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
    expect(env.HOPWATCH_ROOT_PASSWORD.valueFrom.secretKeyRef).toEqual({ name: 'hw-hopwatch', key: 'root-password' });
  });

  it('the container and pod security contexts come from the values checked above', () => {
    for (const mode of [{}, cluster]) {
      const pod = workload(renderChart(chartDir, mode)).spec.template.spec;
      expect(pod.securityContext).toEqual(values.podSecurityContext);
      expect(pod.containers[0].securityContext).toEqual(values.securityContext);
    }
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
    const env = (o: Record<string, unknown>) => envOf(workload(renderChart(chartDir, o)));
    expect(env({}).HOPWATCH_DATABASE_URL).toBeUndefined();
    expect(env({ database: { url: 'postgres://hopwatch@db:5432/hopwatch' } }).HOPWATCH_DATABASE_URL).toEqual({ name: 'HOPWATCH_DATABASE_URL', value: 'postgres://hopwatch@db:5432/hopwatch' });
    expect(env({ database: { existingSecret: 'hw-db', url: 'postgres://ignored' } }).HOPWATCH_DATABASE_URL).toEqual({
      name: 'HOPWATCH_DATABASE_URL',
      valueFrom: { secretKeyRef: { name: 'hw-db', key: 'database-url' } },
    });
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

  it('the Services select the pod by the selector labels and target the named port; the headless one governs the StatefulSet', () => {
    const single = renderChart(chartDir);
    const services = single.manifests.filter((m) => m.kind === 'Service');
    expect(services.map((s) => s.metadata.name)).toEqual(['hw-hopwatch', 'hw-hopwatch-headless']);
    expect(services[1].spec.clusterIP).toBe('None');
    expect(single.find('StatefulSet')!.spec.serviceName).toBe('hw-hopwatch-headless');
    const pod = single.find('StatefulSet')!.spec.template.metadata.labels;
    for (const s of services) {
      expect(s.spec.ports[0].targetPort).toBe('http');
      for (const [k, v] of Object.entries(s.spec.selector)) expect(pod[k]).toBe(v);
    }
    expect(services[0].spec.sessionAffinity).toBeUndefined();
  });
});

describe('the two modes, rendered', () => {
  it('by default: the embedded single-replica StatefulSet with its volume, and no cluster objects', () => {
    const r = renderChart(chartDir);
    expect(r.manifests.map((m) => `${m.kind}/${m.metadata.name}`).sort()).toEqual([
      'Secret/hw-hopwatch', 'Service/hw-hopwatch', 'Service/hw-hopwatch-headless', 'StatefulSet/hw-hopwatch',
    ]);
    const env = envOf(r.find('StatefulSet')!);
    expect(env.HOPWATCH_REDIS_URL).toBeUndefined();
    expect(r.notes).toContain('rollout status statefulset/hw-hopwatch');
    expect(r.notes).toContain('delete the PersistentVolumeClaim data-hw-hopwatch-0');
  });

  it('PostgreSQL alone keeps the StatefulSet (a cluster needs Redis too)', () => {
    const r = renderChart(chartDir, { database: { url: 'postgres://hw@db/hw' } });
    expect(r.find('StatefulSet')).toBeDefined();
    expect(r.find('Deployment')).toBeUndefined();
    expect(r.find('PodDisruptionBudget')).toBeUndefined();
  });

  it('with PostgreSQL and Redis: a Deployment of replicaCount replicas, no volume claim, shared keys, a PodDisruptionBudget', () => {
    const v = mergeForSchema(cluster);
    expect(validate(v), JSON.stringify(validate.errors)).toBe(true);
    const r = renderChart(chartDir, cluster);
    expect(r.manifests.map((m) => `${m.kind}/${m.metadata.name}`).sort()).toEqual([
      'Deployment/hw-hopwatch', 'PodDisruptionBudget/hw-hopwatch', 'Secret/hw-hopwatch', 'Secret/hw-hopwatch-keys', 'Service/hw-hopwatch',
    ]);
    const dep = r.find('Deployment')!;
    expect(dep.spec.replicas).toBe(3);
    expect(dep.spec.strategy.rollingUpdate).toEqual({ maxSurge: 1, maxUnavailable: 0 });
    expect(dep.spec.volumeClaimTemplates).toBeUndefined();
    const pod = dep.spec.template.spec;
    const container = pod.containers[0];
    // Ready only when the database and Redis answer (/readyz); alive on /healthz.
    expect(container.readinessProbe.httpGet).toEqual({ path: '/readyz', port: 'http' });
    expect(container.livenessProbe.httpGet).toEqual({ path: '/healthz', port: 'http' });
    const env = envOf(dep);
    expect(env.HOPWATCH_DATABASE_URL.valueFrom.secretKeyRef).toEqual({ name: 'hw-db', key: 'database-url' });
    expect(env.HOPWATCH_REDIS_URL).toEqual({ name: 'HOPWATCH_REDIS_URL', value: 'redis://redis.hw.svc:6379' });
    // /data is each pod's scratch; the key files come from one Secret, the same on every replica.
    // Nothing else: no claim of any kind (a ReadWriteMany volume shared by the replicas would
    // be state outside PostgreSQL), only the pod's own emptyDirs and the read-only Secret.
    expect(r.manifests.filter((m) => m.kind === 'PersistentVolumeClaim')).toEqual([]);
    for (const x of pod.volumes) expect(Object.keys(x).filter((k) => k !== 'name'), x.name).toEqual([x.name === 'keys' ? 'secret' : 'emptyDir']);
    expect(container.volumeMounts.filter((m: any) => m.name !== 'keys' && !m.readOnly).map((m: any) => m.mountPath).sort()).toEqual(['/data', '/tmp']);
    const volumes = Object.fromEntries(pod.volumes.map((x: any) => [x.name, x]));
    expect(volumes.data).toEqual({ name: 'data', emptyDir: {} });
    expect(volumes.keys.secret.secretName).toBe('hw-hopwatch-keys');
    const keyFiles = ['liveshare.key', 'agent-setup.key', 'remote-server.key'];
    expect(container.volumeMounts.filter((m: any) => m.name === 'keys')).toEqual(
      keyFiles.map((k) => ({ name: 'keys', mountPath: `/data/${k}`, subPath: k, readOnly: true })),
    );
    const keys = r.find('Secret', 'hw-hopwatch-keys')!;
    expect(Object.keys(keys.data)).toEqual(keyFiles);
    for (const k of keyFiles) expect(Buffer.from(Buffer.from(keys.data[k], 'base64').toString(), 'base64')).toHaveLength(32);
    expect(keys.metadata.annotations['helm.sh/resource-policy']).toBe('keep');
    // The replicas spread over nodes, and the PDB lets one go at a time.
    expect(pod.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm.topologyKey).toBe('kubernetes.io/hostname');
    const pdb = r.find('PodDisruptionBudget')!;
    expect(pdb.apiVersion).toBe('policy/v1');
    expect(pdb.spec.maxUnavailable).toBe(1);
    expect(pdb.spec.selector.matchLabels).toEqual(dep.spec.selector.matchLabels);
    for (const [k, val] of Object.entries(dep.spec.selector.matchLabels)) expect(dep.spec.template.metadata.labels[k]).toBe(val);
    expect(r.find('Service')!.spec.sessionAffinity).toBe('ClientIP');
    expect(r.notes).toContain('rollout status deployment/hw-hopwatch');
    expect(r.notes).not.toContain('PersistentVolumeClaim');
  });

  it('the cluster uses the keys Secret the user names (moved from the single mode) and makes none', () => {
    const r = renderChart(chartDir, { ...cluster, keys: { existingSecret: 'hopwatch-keys' } });
    expect(r.find('Secret', 'hw-hopwatch-keys')).toBeUndefined();
    expect(r.find('Deployment')!.spec.template.spec.volumes.find((x: any) => x.name === 'keys').secret.secretName).toBe('hopwatch-keys');
  });

  it('the PodDisruptionBudget can be turned off', () => {
    expect(renderChart(chartDir, { ...cluster, podDisruptionBudget: { enabled: false } }).find('PodDisruptionBudget')).toBeUndefined();
  });
});
