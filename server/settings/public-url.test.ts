// The public URL of Settings > General (issue 40 item 4): the address agents and users reach
// this appliance at. HOPWATCH_PUBLIC_URL wins over the stored value; the editor checks what
// is typed; unset, the General screen asks for it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeploymentMode, LicenseMode } from '../contract/account.js';
import { Store } from '../store/db.js';
import { applianceOverrides, applianceValues, storeApplianceValues } from './appliance.js';
import { defOf } from './catalogue.js';
import { publicUrlInForce, publicUrlNote } from './public-url.js';
import { generalValues, readChanges } from './tree.js';
import { openTestStore } from '../store/testing/test-store.js';

const saveOf = (value: string) => ({
  Name: 'Root',
  Children: [{ Name: 'ClientSettings', Children: [{ Name: 'General', Children: [{ Name: 'PublicUrl', Type: 0, ComplexType: '', Children: [], Value: value }] }] }],
});
const selfHosted = { deployment: DeploymentMode.SelfHosted, licenseMode: LicenseMode.Professional, insights: undefined, retentionRawDays: undefined, retentionMinuteDays: undefined };

describe('the public URL setting', () => {
  let dir: string;
  let store: Store;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'hopwatch-public-url-'));
    store = await openTestStore(dir);
  });
  afterAll(async () => {
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is a self-hosted appliance setting of General that takes an http(s) URL or nothing', () => {
    const def = defOf('General', 'PublicUrl')!;
    expect(def).toMatchObject({ appliance: true, selfHostedOnly: true });
    expect(readChanges(saveOf('https://hopwatch.example.org/'), [], generalValues({}), false).general).toEqual({ PublicUrl: 'https://hopwatch.example.org/' });
    expect(readChanges(saveOf(''), [], generalValues({}), false).general).toEqual({ PublicUrl: '' });
    expect(() => readChanges(saveOf('hopwatch.example.org'), [], generalValues({}), false)).toThrow(
      'Setting ClientSettings.General.PublicUrl: must be an http:// or https:// URL such as https://hopwatch.example.org',
    );
    expect(() => readChanges(saveOf('ftp://x.example.org'), [], generalValues({}), false)).toThrow(/must be an http:\/\/ or https:\/\/ URL/);
  });

  it('is stored for the appliance, read back without a trailing slash, and the variable wins', async () => {
    expect(await store.read((q) => publicUrlInForce(q, { publicUrl: '' }))).toBeUndefined();
    await store.exclusive((q) => storeApplianceValues(q, { PublicUrl: 'http://10.251.0.1:8080/' }));
    expect(await store.read((q) => applianceValues(q, selfHosted))).toMatchObject({ PublicUrl: 'http://10.251.0.1:8080/' });
    expect(await store.read((q) => publicUrlInForce(q, { publicUrl: '' }))).toBe('http://10.251.0.1:8080');
    expect(await store.read((q) => publicUrlInForce(q, { publicUrl: 'https://hopwatch.example.org' }))).toBe('https://hopwatch.example.org');
    await store.exclusive((q) => storeApplianceValues(q, { PublicUrl: '' }));
    expect(await store.read((q) => publicUrlInForce(q, { publicUrl: '' }))).toBeUndefined();
  });

  it('is asked for on the General screen while unset, and the variable is named where it overrides', () => {
    expect(publicUrlNote(undefined)).toMatch(/^No public URL is set/);
    expect(publicUrlNote('https://hopwatch.example.org')).toBeUndefined();
    expect(applianceOverrides({ ...selfHosted, publicUrl: 'https://hopwatch.example.org' }).PublicUrl).toMatch(/^HOPWATCH_PUBLIC_URL=https:\/\/hopwatch\.example\.org is set/);
  });
});
