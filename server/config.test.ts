import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';

describe('loadConfig', () => {
  it('reads HOPWATCH_DATABASE_URL: PostgreSQL when set, the DuckDB file without it (issue 42 item 1)', () => {
    expect(loadConfig({}).databaseUrl).toBeUndefined();
    expect(loadConfig({ HOPWATCH_DATABASE_URL: ' postgres://hw:pw@db.example:5432/hopwatch ' }).databaseUrl).toBe('postgres://hw:pw@db.example:5432/hopwatch');
    expect(loadConfig({ HOPWATCH_DATABASE_URL: 'postgresql://db/hopwatch' }).databaseUrl).toBe('postgresql://db/hopwatch');
    expect(() => loadConfig({ HOPWATCH_DATABASE_URL: 'mysql://db/hopwatch' })).toThrow(/HOPWATCH_DATABASE_URL must be a postgres:\/\/ URL/);
    // The message never repeats the URL: it may hold a password.
    expect(() => loadConfig({ HOPWATCH_DATABASE_URL: 'mysql://u:secret@db/x' })).not.toThrow(/secret/);
  });

  it('reads HOPWATCH_REDIS_URL only with HOPWATCH_DATABASE_URL: replicas need a shared store (issue 43 item 1)', () => {
    expect(loadConfig({}).redisUrl).toBeUndefined();
    const db = { HOPWATCH_DATABASE_URL: 'postgres://db/hopwatch' };
    expect(loadConfig({ ...db, HOPWATCH_REDIS_URL: ' redis://:pw@cache:6379/2 ' }).redisUrl).toBe('redis://:pw@cache:6379/2');
    expect(() => loadConfig({ ...db, HOPWATCH_REDIS_URL: 'memcached://cache' })).toThrow(/HOPWATCH_REDIS_URL must be a redis:\/\/ .*URL/);
    expect(() => loadConfig({ HOPWATCH_REDIS_URL: 'redis://cache:6379' })).toThrow(/set HOPWATCH_DATABASE_URL \(PostgreSQL\) too/);
    // The message never repeats the URL: it may hold a password.
    expect(() => loadConfig({ HOPWATCH_REDIS_URL: 'redis://:secret@cache:6379' })).not.toThrow(/secret/);
    expect(() => loadConfig({ ...db, HOPWATCH_REDIS_URL: 'x://:secret@cache' })).not.toThrow(/secret/);
  });

  it('has the documented defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({ port: 8080, host: '0.0.0.0', deployment: 0, licenseMode: 3, rootUser: 'admin', rootPassword: undefined });
    expect(c.dataDir).toMatch(/\/data$/);
  });
  it("leaves DuckDB's memory limit to the store's default and reads HOPWATCH_STORE_MEMORY_MB (issue 45 item 7)", () => {
    expect(loadConfig({}).storeMemoryMb).toBeUndefined();
    expect(loadConfig({ HOPWATCH_STORE_MEMORY_MB: '2048' }).storeMemoryMb).toBe(2048);
    expect(() => loadConfig({ HOPWATCH_STORE_MEMORY_MB: '32' })).toThrow(/HOPWATCH_STORE_MEMORY_MB must be 64 or more/);
    expect(() => loadConfig({ HOPWATCH_STORE_MEMORY_MB: '1GB' })).toThrow(/HOPWATCH_STORE_MEMORY_MB must be a whole number/);
  });
  it('rejects values a person mistyped', () => {
    expect(() => loadConfig({ HOPWATCH_PORT: 'eighty' })).toThrow(/HOPWATCH_PORT must be a whole number/);
    expect(() => loadConfig({ HOPWATCH_LICENSE_MODE: '2' })).toThrow(/one of 0, 1, 3, 100, 112/);
    expect(() => loadConfig({ HOPWATCH_TRIAL_EXPIRES: 'soon' })).toThrow(/HOPWATCH_TRIAL_EXPIRES/);
  });
  it('reads the first staff user (none by default), which must differ from root', () => {
    expect(loadConfig({})).toMatchObject({ staffUser: undefined, staffPassword: undefined });
    expect(loadConfig({ HOPWATCH_STAFF_USER: ' ops@provider.example ', HOPWATCH_STAFF_PASSWORD: 'pw' })).toMatchObject({ staffUser: 'ops@provider.example', staffPassword: 'pw' });
    expect(() => loadConfig({ HOPWATCH_STAFF_USER: 'Admin' })).toThrow(/HOPWATCH_STAFF_USER must differ from HOPWATCH_ROOT_USER/);
  });
  it('trusts no proxy by default and reads HOPWATCH_TRUSTED_PROXIES', () => {
    expect(loadConfig({}).trustedProxies).toEqual([]);
    expect(loadConfig({ HOPWATCH_TRUSTED_PROXIES: ' 10.0.0.5, 10.1.0.0/16 ,fd00::/8, loopback' }).trustedProxies).toEqual([
      '10.0.0.5',
      '10.1.0.0/16',
      'fd00::/8',
      'loopback',
    ]);
    expect(() => loadConfig({ HOPWATCH_TRUSTED_PROXIES: 'proxy.local' })).toThrow(/HOPWATCH_TRUSTED_PROXIES.*"proxy.local"/);
    expect(() => loadConfig({ HOPWATCH_TRUSTED_PROXIES: '10.0.0.0/33' })).toThrow(/HOPWATCH_TRUSTED_PROXIES/);
    expect(() => loadConfig({ HOPWATCH_TRUSTED_PROXIES: '*' })).toThrow(/HOPWATCH_TRUSTED_PROXIES/);
  });
  it('probes with raw sockets unless HOPWATCH_ENGINE=simulated', () => {
    expect(loadConfig({})).toMatchObject({ engine: 'raw', simScenarios: [] });
    expect(loadConfig({ HOPWATCH_ENGINE: 'simulated', HOPWATCH_SIM_SCENARIOS: 'test/sim/scenarios' })).toMatchObject({ engine: 'simulated' });
    expect(loadConfig({ HOPWATCH_SIM_SCENARIOS: 'test/sim/scenarios' }).simScenarios[0]).toMatch(/\/test\/sim\/scenarios$/);
    expect(() => loadConfig({ HOPWATCH_ENGINE: 'fake' })).toThrow(/HOPWATCH_ENGINE must be raw or simulated/);
    expect(() => loadConfig({ HOPWATCH_SIM_SCENARIOS: 'no/such/dir' })).toThrow(/HOPWATCH_SIM_SCENARIOS names .*no\/such\/dir/);
  });
  it('reads the retention days, and stops the start on a bad value naming the variable', () => {
    expect(loadConfig({})).toMatchObject({ retentionRawDays: undefined, retentionMinuteDays: undefined });
    expect(loadConfig({ HOPWATCH_RETENTION_RAW_DAYS: '7', HOPWATCH_RETENTION_MINUTE_DAYS: '90' })).toMatchObject({ retentionRawDays: 7, retentionMinuteDays: 90 });
    expect(() => loadConfig({ HOPWATCH_RETENTION_RAW_DAYS: '0' })).toThrow(/HOPWATCH_RETENTION_RAW_DAYS must be a number of days from 1/);
    expect(() => loadConfig({ HOPWATCH_RETENTION_RAW_DAYS: 'a week' })).toThrow(/HOPWATCH_RETENTION_RAW_DAYS must be a whole number/);
    expect(() => loadConfig({ HOPWATCH_RETENTION_MINUTE_DAYS: '2.5' })).toThrow(/HOPWATCH_RETENTION_MINUTE_DAYS must be a whole number/);
  });
  it('keeps closed sessions forever by default and reads HOPWATCH_RETENTION_SESSIONS_DAYS', () => {
    expect(loadConfig({}).retentionSessionsDays).toBeUndefined();
    expect(loadConfig({ HOPWATCH_RETENTION_SESSIONS_DAYS: '30' }).retentionSessionsDays).toBe(30);
    expect(() => loadConfig({ HOPWATCH_RETENTION_SESSIONS_DAYS: '0' })).toThrow(/HOPWATCH_RETENTION_SESSIONS_DAYS must be 1 or more/);
    expect(() => loadConfig({ HOPWATCH_RETENTION_SESSIONS_DAYS: '1.5' })).toThrow(/HOPWATCH_RETENTION_SESSIONS_DAYS must be a whole number/);
  });
  it('limits imports to 512 MiB unless HOPWATCH_MAX_IMPORT_MB says otherwise', () => {
    expect(loadConfig({}).maxImportMB).toBe(512);
    expect(loadConfig({ HOPWATCH_MAX_IMPORT_MB: '1' }).maxImportMB).toBe(1);
    expect(() => loadConfig({ HOPWATCH_MAX_IMPORT_MB: '0' })).toThrow(/HOPWATCH_MAX_IMPORT_MB must be 1 or more/);
  });
  it('speaks TLS only with both HOPWATCH_TLS_CERT and HOPWATCH_TLS_KEY naming existing files', () => {
    expect(loadConfig({}).tls).toBeUndefined();
    const here = import.meta.filename;
    expect(loadConfig({ HOPWATCH_TLS_CERT: here, HOPWATCH_TLS_KEY: here }).tls).toEqual({ certFile: here, keyFile: here });
    expect(() => loadConfig({ HOPWATCH_TLS_CERT: here })).toThrow(/HOPWATCH_TLS_CERT and HOPWATCH_TLS_KEY go together/);
    expect(() => loadConfig({ HOPWATCH_TLS_CERT: here, HOPWATCH_TLS_KEY: '/nonexistent/key.pem' })).toThrow(/HOPWATCH_TLS_KEY names \/nonexistent\/key.pem/);
  });
  it('reads HOPWATCH_INSIGHTS as 1 or 0', () => {
    // Unset: the stored setting, else the edition decides (server/insights/edition.ts).
    expect(loadConfig({}).insights).toBeUndefined();
    expect(loadConfig({ HOPWATCH_INSIGHTS: '1' }).insights).toBe(true);
    expect(loadConfig({ HOPWATCH_DEPLOYMENT: '1', HOPWATCH_INSIGHTS: '0' }).insights).toBe(false);
    expect(() => loadConfig({ HOPWATCH_INSIGHTS: 'yes' })).toThrow(/HOPWATCH_INSIGHTS must be 1 or 0/);
  });
  it('switches the onboarding window on with HOPWATCH_ONBOARDING=1 and reads its sample trace host', () => {
    expect(loadConfig({})).toMatchObject({ onboarding: false, onboardingTarget: 'google.com' });
    expect(loadConfig({ HOPWATCH_ONBOARDING: '1', HOPWATCH_ONBOARDING_TARGET: ' 10.251.138.34 ' })).toMatchObject({ onboarding: true, onboardingTarget: '10.251.138.34' });
    expect(() => loadConfig({ HOPWATCH_ONBOARDING: 'yes' })).toThrow(/HOPWATCH_ONBOARDING must be 1 or 0/);
    expect(() => loadConfig({ HOPWATCH_ONBOARDING_TARGET: 'http://x y' })).toThrow(/HOPWATCH_ONBOARDING_TARGET must be a host name or address/);
  });
});
