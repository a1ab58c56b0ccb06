// Configuration from HOPWATCH_* environment variables (names fixed in ARCHITECTURE.md).
import { existsSync } from 'node:fs';
import { isIP } from 'node:net';
import { join, resolve } from 'node:path';
import { DeploymentMode, LicenseMode } from './contract/account.js';
import { addressRanges } from './http/outbound-address.js';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /**
   * postgres://...: every table in this PostgreSQL (15 or later) database instead of the data
   * directory's DuckDB file (HOPWATCH_DATABASE_URL; docs/deploy.md). Undefined: DuckDB.
   */
  databaseUrl: string | undefined;
  /**
   * redis://... (or rediss://): what replicas share (hub backplane, agent-link routing and
   * presence, limit counters, cache invalidation; server/cluster/, docs/scale.md "Redis").
   * Undefined: one process, everything in memory as before. Needs databaseUrl.
   */
  redisUrl: string | undefined;
  /**
   * How long an agent linked to a replica that died still shows online on the others (its
   * presence key's TTL; HOPWATCH_REDIS_PRESENCE_SECONDS, default 15).
   */
  presenceTtlMs: number;
  deployment: DeploymentMode;
  licenseMode: LicenseMode;
  rootUser: string;
  /** Used only when the root user is first created; never logged. */
  rootPassword: string | undefined;
  /**
   * The first staff user (the staff area is the cloud flavour's), created at start when named and missing, in a
   * provider account of its own with Staff and ImpersonateUser (HOPWATCH_STAFF_USER); docs/accounts.md.
   */
  staffUser: string | undefined;
  /** Its initial password (HOPWATCH_STAFF_PASSWORD); unset: a temporary one printed once. Never logged. */
  staffPassword: string | undefined;
  /** When set and in the past, private calls answer 403 with `expired-trial: True`. */
  trialExpires: Date | undefined;
  /** Directory of the built console (index.html and assets). */
  webDir: string;
  logLevel: string;
  /** Open sessions whose recent data the server keeps in memory for fast graphs. */
  memorySessions: number;
  /**
   * DuckDB's memory limit in MiB (HOPWATCH_STORE_MEMORY_MB); undefined: the default, a quarter
   * of the RAM between 256 MiB and 1 GiB (server/store/duck-memory.ts). Beyond it DuckDB evicts
   * cached blocks and spills large queries to the data directory's duckdb-spill/.
   */
  storeMemoryMb: number | undefined;
  /**
   * Addresses (or CIDR ranges) of reverse proxies whose X-Forwarded-For/-Proto/-Host are
   * believed; empty: none, every client is its socket address (HOPWATCH_TRUSTED_PROXIES).
   */
  trustedProxies: string[];
  /** Requests slower than this are logged at info (all others at debug); 0 logs every request. */
  slowRequestMs: number;
  /**
   * The store's reads under overload (DuckDB): how long one may wait before it is answered 503
   * with Retry-After (HOPWATCH_READ_WAIT_MS, default 15,000), and how many console reads may
   * queue for a read connection (HOPWATCH_READ_QUEUE, default 256; sign-ins are not counted).
   */
  readWaitMs: number;
  readQueue: number;
  /**
   * 'raw' (default): traces probe through raw sockets. 'simulated': through the engine's
   * simulated network (tests and demos without root; nothing is sent) (HOPWATCH_ENGINE).
   */
  engine: 'raw' | 'simulated';
  /**
   * Scenario files (or directories of them) of the simulated network, from
   * HOPWATCH_SIM_SCENARIOS (comma-separated); empty: loopback only (docs/engine.md).
   */
  simScenarios: string[];
  /**
   * Insights switched on or off by HOPWATCH_INSIGHTS (1 or 0); undefined: the stored
   * Settings > General > Insights setting decides, else the edition (on in the cloud only).
   * server/insights/edition.ts; docs/insights.md "Edition".
   */
  insights: boolean | undefined;
  /**
   * Days raw samples and 1-minute rollups are kept (HOPWATCH_RETENTION_RAW_DAYS, _MINUTE_DAYS);
   * undefined: not set here, the stored setting or the default applies (server/store/retention-settings.ts).
   */
  retentionRawDays: number | undefined;
  retentionMinuteDays: number | undefined;
  /** Closed sessions older than this many days are deleted daily; undefined keeps them forever. */
  retentionSessionsDays: number | undefined;
  /** Largest data file ImportPP2File accepts, in MiB (larger uploads answer 413). */
  maxImportMB: number;
  /**
   * PEM files of the certificate (chain) and key the server speaks TLS with (HOPWATCH_TLS_CERT,
   * HOPWATCH_TLS_KEY, both or neither); undefined: plain HTTP (or TLS at a reverse proxy).
   */
  tls: { certFile: string; keyFile: string } | undefined;
  /**
   * Sidekick discovery (docs/sidekick.md): the machine's view (HOPWATCH_SIDEKICK_ROUTE_TABLE,
   * HOPWATCH_SIDEKICK_RESOLV_CONF), the ranges counted as private (HOPWATCH_SIDEKICK_PRIVATE_RANGES)
   * how long discovery waits for the provider edge (HOPWATCH_SIDEKICK_EDGE_WAIT_SECONDS) and the
   * appliance's default external sources (HOPWATCH_SIDEKICK_EXTERNAL_SOURCES, two, comma-separated;
   * Settings > General overrides them per account).
   */
  sidekick: { routeTablePath: string; resolvConfPath: string; privateRanges: string[] | undefined; edgeWaitMs: number; externalSources: string[] | undefined };
  /** Alerts: samples older than this (backfill) notify no start (HOPWATCH_ALERT_MAX_STALE_SECONDS, 300). */
  alertMaxStaleSeconds: number;
  /** Alerts: a notification is retried for this long before it fails (HOPWATCH_ALERT_RETRY_MINUTES, 60). */
  alertRetryMinutes: number;
  /** Settings > General Dynamic DNS Auto: a running target named by a DNS name resolves it again this often (seconds). */
  dynamicDnsSeconds: number;
  /** Where the alerts' "export a data file" action writes (HOPWATCH_ALERT_EXPORT_DIR; default <data dir>/alert-exports). */
  alertExportDir: string;
  /**
   * Each account's quota of alert exports (HOPWATCH_ALERT_EXPORT_MAX_MB, 500; HOPWATCH_ALERT_EXPORT_MAX_FILES,
   * 1000): a new file that would go over deletes that account's oldest (server/alerts/export-quota.ts).
   */
  alertExportMaxBytes: number;
  alertExportMaxFiles: number;
  /** Bearer token GET /metrics requires; undefined: /metrics is refused (HOPWATCH_METRICS_TOKEN). */
  metricsToken: string | undefined;
  /**
   * Address ranges webhooks may call although the address policy refuses them (loopback, link-local, the
   * appliance's own addresses, private ranges in the hosted flavour): HOPWATCH_WEBHOOK_ALLOW, comma-separated
   * CIDRs; server/http/outbound-address.ts.
   */
  webhookAllow: string[];
  /** The console's address as users reach it, for links in notifications (HOPWATCH_PUBLIC_URL); '' leaves them out. */
  publicUrl: string;
  /** The onboarding flavour (HOPWATCH_ONBOARDING=1): the onboarding window for new users (docs/onboarding.md). */
  onboarding: boolean;
  /** The host the onboarding's sample trace goes to (HOPWATCH_ONBOARDING_TARGET; default google.com). */
  onboardingTarget: string;
}

export class ConfigError extends Error {}

function intVar(env: NodeJS.ProcessEnv, name: string, fallback: number, allowed?: readonly number[]): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n)) throw new ConfigError(`${name} must be a whole number, got "${raw}"`);
  if (allowed && !allowed.includes(n)) throw new ConfigError(`${name} must be one of ${allowed.join(', ')}, got ${n}`);
  return n;
}

/** HOPWATCH_DATABASE_URL: a postgres:// (or postgresql://) URL; the message never repeats it (it may hold a password). */
function databaseUrl(env: NodeJS.ProcessEnv): string | undefined {
  const raw = env.HOPWATCH_DATABASE_URL?.trim();
  if (!raw) return undefined;
  if (!/^postgres(ql)?:\/\//i.test(raw)) throw new ConfigError('HOPWATCH_DATABASE_URL must be a postgres:// URL (PostgreSQL 15 or later), or unset for the embedded DuckDB store');
  return raw;
}

/**
 * HOPWATCH_REDIS_URL: a redis:// or rediss:// URL, only together with HOPWATCH_DATABASE_URL
 * (replicas need a shared store). The message never repeats the URL (it may hold a password).
 */
function redisUrl(env: NodeJS.ProcessEnv, databaseUrl: string | undefined): string | undefined {
  const raw = env.HOPWATCH_REDIS_URL?.trim();
  if (!raw) return undefined;
  if (!/^rediss?:\/\//i.test(raw)) throw new ConfigError('HOPWATCH_REDIS_URL must be a redis:// (or rediss://) URL (Redis 7), or unset for a single replica');
  if (!databaseUrl) {
    throw new ConfigError(
      'HOPWATCH_REDIS_URL runs this server as one replica of several, which needs a store they share: set HOPWATCH_DATABASE_URL (PostgreSQL) too, or unset HOPWATCH_REDIS_URL for a single appliance on its DuckDB file',
    );
  }
  return raw;
}

function presenceSeconds(env: NodeJS.ProcessEnv): number {
  const n = intVar(env, 'HOPWATCH_REDIS_PRESENCE_SECONDS', 15);
  if (n < 2 || n > 300) throw new ConfigError('HOPWATCH_REDIS_PRESENCE_SECONDS must be between 2 and 300');
  return n;
}

function engineVar(raw: string | undefined): Config['engine'] {
  if (raw === undefined || raw === '' || raw === 'raw') return 'raw';
  if (raw === 'simulated') return 'simulated';
  throw new ConfigError(`HOPWATCH_ENGINE must be raw or simulated, got "${raw}"`);
}

function scenarioPaths(raw: string | undefined): string[] {
  const paths = (raw ?? '').split(',').map((p) => p.trim()).filter(Boolean).map((p) => resolve(p));
  for (const p of paths) if (!existsSync(p)) throw new ConfigError(`HOPWATCH_SIM_SCENARIOS names ${p}, which does not exist`);
  return paths;
}

/** A number of days: a whole number from 1 to 36500 (a hundred years), or unset. */
function daysVar(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  const n = intVar(env, name, 0);
  if (n < 1 || n > 36_500) throw new ConfigError(`${name} must be a number of days from 1 to 36500, got ${n}`);
  return n;
}

/** proxy-addr's names for whole ranges, accepted as they are. */
const proxyRangeNames = ['loopback', 'linklocal', 'uniquelocal'];

/** "10.0.0.5, 10.1.0.0/16, loopback" -> the list; a malformed entry stops the start. */
export function parseTrustedProxies(raw: string | undefined): string[] {
  if (!raw || !raw.trim()) return [];
  return raw.split(',').map((entry) => {
    const e = entry.trim();
    const [address, bits, extra] = e.split('/');
    const version = isIP(address ?? '');
    const maxBits = version === 6 ? 128 : 32;
    const bitsOk = bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= maxBits);
    if (proxyRangeNames.includes(e) || (version !== 0 && bitsOk && extra === undefined)) return e;
    throw new ConfigError(
      `HOPWATCH_TRUSTED_PROXIES must list IP addresses or CIDR ranges (or loopback, linklocal, uniquelocal), separated by commas; "${e}" is not one`,
    );
  });
}

function positiveVar(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const n = intVar(env, name, fallback);
  if (n < 1) throw new ConfigError(`${name} must be 1 or more, got ${n}`);
  return n;
}

/** HOPWATCH_STORE_MEMORY_MB: whole MiB, at least 64 (DuckDB needs some room per thread to run a query at all). */
function storeMemoryVar(env: NodeJS.ProcessEnv): number | undefined {
  const raw = env.HOPWATCH_STORE_MEMORY_MB;
  if (raw === undefined || raw === '') return undefined;
  const n = intVar(env, 'HOPWATCH_STORE_MEMORY_MB', 0);
  if (n < 64) throw new ConfigError(`HOPWATCH_STORE_MEMORY_MB must be 64 or more (MiB), got ${n}`);
  return n;
}

/** A whole number from 1 to `max`. */
function boundedVar(env: NodeJS.ProcessEnv, name: string, fallback: number, max: number): number {
  const n = positiveVar(env, name, fallback);
  if (n > max) throw new ConfigError(`${name} must be at most ${max}, got ${n}`);
  return n;
}

/** "127.0.0.0/8, ::1/128" -> the list, checked here so that a typo stops the start instead of refusing webhooks later. */
function webhookAllowVar(raw: string | undefined): string[] {
  const list = (raw ?? '').split(',').map((e) => e.trim()).filter(Boolean);
  try {
    addressRanges(list);
  } catch (err) {
    throw new ConfigError(`HOPWATCH_WEBHOOK_ALLOW must list addresses or CIDR ranges separated by commas: ${(err as Error).message}`);
  }
  return list;
}

function publicUrlVar(raw: string | undefined): string {
  if (!raw) return '';
  try {
    const u = new URL(raw);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error();
  } catch {
    throw new ConfigError(`HOPWATCH_PUBLIC_URL must be an http or https URL such as https://hopwatch.example.org, got "${raw}"`);
  }
  return raw.replace(/\/+$/, '');
}

function onboardingVar(raw: string | undefined): boolean {
  if (raw === undefined || raw === '' || raw === '0') return false;
  if (raw === '1') return true;
  throw new ConfigError(`HOPWATCH_ONBOARDING must be 1 or 0, got "${raw}"`);
}

/** A host name or address: what newtarget accepts as a target (no scheme, no spaces). */
function onboardingTargetVar(raw: string | undefined): string {
  const host = (raw ?? '').trim();
  if (!host) return 'google.com';
  if (!/^[A-Za-z0-9.:_-]{1,253}$/.test(host)) throw new ConfigError(`HOPWATCH_ONBOARDING_TARGET must be a host name or address, got "${raw}"`);
  return host;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, webDirDefault = resolve('dist/web')): Config {
  const port = intVar(env, 'HOPWATCH_PORT', 8080);
  if (port < 0 || port > 65535) throw new ConfigError(`HOPWATCH_PORT must be 0-65535, got ${port}`);
  const trialRaw = env.HOPWATCH_TRIAL_EXPIRES;
  let trialExpires: Date | undefined;
  if (trialRaw) {
    trialExpires = new Date(trialRaw);
    if (Number.isNaN(trialExpires.getTime())) throw new ConfigError(`HOPWATCH_TRIAL_EXPIRES must be a date, got "${trialRaw}"`);
  }
  if (intVar(env, 'HOPWATCH_MEMORY_SESSIONS', 100) < 0) throw new ConfigError('HOPWATCH_MEMORY_SESSIONS must be 0 or more');
  const retentionRawDays = daysVar(env, 'HOPWATCH_RETENTION_RAW_DAYS');
  const retentionMinuteDays = daysVar(env, 'HOPWATCH_RETENTION_MINUTE_DAYS');
  const retention = intVar(env, 'HOPWATCH_RETENTION_SESSIONS_DAYS', 0);
  if (retention < 0 || (env.HOPWATCH_RETENTION_SESSIONS_DAYS !== undefined && env.HOPWATCH_RETENTION_SESSIONS_DAYS !== '' && retention < 1)) {
    throw new ConfigError('HOPWATCH_RETENTION_SESSIONS_DAYS must be 1 or more (unset keeps closed sessions forever)');
  }
  const readWaitMs = intVar(env, 'HOPWATCH_READ_WAIT_MS', 15_000);
  if (readWaitMs < 1) throw new ConfigError('HOPWATCH_READ_WAIT_MS must be 1 or more');
  const readQueue = intVar(env, 'HOPWATCH_READ_QUEUE', 256);
  if (readQueue < 1) throw new ConfigError('HOPWATCH_READ_QUEUE must be 1 or more');
  const maxImportMB = intVar(env, 'HOPWATCH_MAX_IMPORT_MB', 512);
  if (maxImportMB < 1) throw new ConfigError('HOPWATCH_MAX_IMPORT_MB must be 1 or more');
  const deployment = intVar(env, 'HOPWATCH_DEPLOYMENT', DeploymentMode.SelfHosted, Object.values(DeploymentMode)) as DeploymentMode;
  const rootUser = (env.HOPWATCH_ROOT_USER ?? 'admin').trim();
  if (!rootUser) throw new ConfigError('HOPWATCH_ROOT_USER must not be blank');
  const staffUser = env.HOPWATCH_STAFF_USER?.trim() || undefined;
  if (staffUser && staffUser.toLowerCase() === rootUser.toLowerCase()) throw new ConfigError('HOPWATCH_STAFF_USER must differ from HOPWATCH_ROOT_USER');
  return {
    port,
    host: env.HOPWATCH_HOST || '0.0.0.0',
    dataDir: resolve(env.HOPWATCH_DATA_DIR || './data'),
    databaseUrl: databaseUrl(env),
    redisUrl: redisUrl(env, databaseUrl(env)),
    presenceTtlMs: presenceSeconds(env) * 1000,
    deployment,
    licenseMode: intVar(env, 'HOPWATCH_LICENSE_MODE', LicenseMode.Professional, Object.values(LicenseMode)) as LicenseMode,
    rootUser,
    rootPassword: env.HOPWATCH_ROOT_PASSWORD || undefined,
    staffUser,
    staffPassword: env.HOPWATCH_STAFF_PASSWORD || undefined,
    trialExpires,
    webDir: resolve(env.HOPWATCH_WEB_DIR || webDirDefault),
    logLevel: env.HOPWATCH_LOG_LEVEL || 'info',
    memorySessions: intVar(env, 'HOPWATCH_MEMORY_SESSIONS', 100),
    storeMemoryMb: storeMemoryVar(env),
    trustedProxies: parseTrustedProxies(env.HOPWATCH_TRUSTED_PROXIES),
    slowRequestMs: intVar(env, 'HOPWATCH_SLOW_REQUEST_MS', 1000),
    readWaitMs,
    readQueue,
    engine: engineVar(env.HOPWATCH_ENGINE),
    simScenarios: scenarioPaths(env.HOPWATCH_SIM_SCENARIOS),
    retentionRawDays,
    retentionMinuteDays,
    retentionSessionsDays: retention || undefined,
    maxImportMB,
    tls: tlsFiles(env),
    insights: insightsVar(env.HOPWATCH_INSIGHTS),
    alertMaxStaleSeconds: positiveVar(env, 'HOPWATCH_ALERT_MAX_STALE_SECONDS', 300),
    alertRetryMinutes: positiveVar(env, 'HOPWATCH_ALERT_RETRY_MINUTES', 60),
    dynamicDnsSeconds: positiveVar(env, 'HOPWATCH_DYNAMIC_DNS_SECONDS', 300),
    alertExportDir: resolve(env.HOPWATCH_ALERT_EXPORT_DIR || join(resolve(env.HOPWATCH_DATA_DIR || './data'), 'alert-exports')),
    alertExportMaxBytes: boundedVar(env, 'HOPWATCH_ALERT_EXPORT_MAX_MB', 500, 1_048_576) * 1024 * 1024,
    alertExportMaxFiles: boundedVar(env, 'HOPWATCH_ALERT_EXPORT_MAX_FILES', 1000, 1_000_000),
    metricsToken: env.HOPWATCH_METRICS_TOKEN || undefined,
    webhookAllow: webhookAllowVar(env.HOPWATCH_WEBHOOK_ALLOW),
    publicUrl: publicUrlVar(env.HOPWATCH_PUBLIC_URL),
    onboarding: onboardingVar(env.HOPWATCH_ONBOARDING),
    onboardingTarget: onboardingTargetVar(env.HOPWATCH_ONBOARDING_TARGET),
    sidekick: sidekickVars(env),
  };
}

function sidekickVars(env: NodeJS.ProcessEnv): Config['sidekick'] {
  const ranges = env.HOPWATCH_SIDEKICK_PRIVATE_RANGES?.trim();
  const privateRanges = ranges ? ranges.split(',').map((r) => r.trim()).filter(Boolean) : undefined;
  for (const r of privateRanges ?? []) {
    const [net, bits] = r.split('/');
    if (!isIP(net) || !/^\d+$/.test(bits ?? '')) throw new ConfigError(`HOPWATCH_SIDEKICK_PRIVATE_RANGES: "${r}" is not a CIDR range (e.g. 10.0.0.0/8)`);
  }
  return {
    routeTablePath: env.HOPWATCH_SIDEKICK_ROUTE_TABLE || '/proc/net/route',
    resolvConfPath: env.HOPWATCH_SIDEKICK_RESOLV_CONF || '/etc/resolv.conf',
    privateRanges,
    edgeWaitMs: positiveVar(env, 'HOPWATCH_SIDEKICK_EDGE_WAIT_SECONDS', 60) * 1000,
    externalSources: externalSourcesVar(env.HOPWATCH_SIDEKICK_EXTERNAL_SOURCES),
  };
}

function externalSourcesVar(raw: string | undefined): string[] | undefined {
  if (!raw?.trim()) return undefined;
  const list = raw.split(',').map((s) => s.trim());
  if (list.length !== 2 || list.some((s) => !/^[A-Za-z0-9.:_-]{1,253}$/.test(s))) {
    throw new ConfigError(`HOPWATCH_SIDEKICK_EXTERNAL_SOURCES must be two addresses or DNS names, comma-separated, got "${raw}"`);
  }
  return list;
}

function tlsFiles(env: NodeJS.ProcessEnv): Config['tls'] {
  const cert = env.HOPWATCH_TLS_CERT || '';
  const key = env.HOPWATCH_TLS_KEY || '';
  if (!cert && !key) return undefined;
  if (!cert || !key) throw new ConfigError('HOPWATCH_TLS_CERT and HOPWATCH_TLS_KEY go together: set both (PEM files) or neither');
  for (const [name, path] of [['HOPWATCH_TLS_CERT', cert], ['HOPWATCH_TLS_KEY', key]]) {
    if (!existsSync(path)) throw new ConfigError(`${name} names ${path}, which does not exist`);
  }
  return { certFile: resolve(cert), keyFile: resolve(key) };
}

function insightsVar(raw: string | undefined): boolean | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (raw === '1' || raw === 'true') return true;
  if (raw === '0' || raw === 'false') return false;
  throw new ConfigError(`HOPWATCH_INSIGHTS must be 1 or 0, got "${raw}"`);
}
