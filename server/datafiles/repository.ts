// The rows of a session a data file carries besides its samples, read and written here.
import type { Queryable } from '../store/db.js';
import type { FileComment, FileConfiguration, FileRouteChange } from './format.js';

export function routeChangesBetween(q: Queryable, sessionId: number, from: number, to: number): Promise<FileRouteChange[]> {
  return q.all<FileRouteChange>(
    `SELECT time AS "Time", hop AS "Hop", old_address AS "OldAddress", new_address AS "NewAddress"
     FROM route_changes WHERE session_id = $1 AND time BETWEEN $2 AND $3 ORDER BY time, hop`,
    [sessionId, from, to],
  );
}

/**
 * Rows into a table in statements of `per` rows each (multi-row VALUES, parameters): an
 * import brings up to tens of thousands of route changes and comments (its metadata limit,
 * docs/data-file.md "Limits"), and a statement per row held the writer about a millisecond
 * each (40,000 route changes took 50 s).
 */
async function insertMany(q: Queryable, into: string, rows: (string | number)[][], per = 500): Promise<void> {
  for (let at = 0; at < rows.length; at += per) {
    const part = rows.slice(at, at + per);
    const width = part[0].length;
    const values = part.map((_, r) => `(${Array.from({ length: width }, (_, c) => `$${r * width + c + 1}`).join(', ')})`).join(', ');
    await q.run(`INSERT INTO ${into} VALUES ${values}`, part.flat());
  }
}

export async function insertRouteChanges(q: Queryable, sessionId: number, changes: FileRouteChange[]): Promise<void> {
  await insertMany(q, 'route_changes (session_id, time, hop, old_address, new_address)', changes.map((c) => [sessionId, c.Time, c.Hop, c.OldAddress, c.NewAddress]));
}

/** A file's comments (the same row as comments/repository.ts insertComment writes, many at a time), by the importing user. */
export async function insertComments(q: Queryable, sessionId: number, comments: FileComment[], createdBy: number, now: number): Promise<void> {
  await insertMany(
    q,
    'comments (session_id, when_ms, text, type, extra_attributes_json, created_by, updated_at)',
    comments.map((c) => [sessionId, c.When, c.Text, c.Type, c.ExtraAttributesJson, createdBy, now]),
  );
}

export function configurationOf(q: Queryable, id: number): Promise<FileConfiguration | undefined> {
  return q.one<FileConfiguration>('SELECT name AS "Name", warn AS "Warn", bad AS "Bad", scale AS "Scale" FROM configurations WHERE id = $1', [id]);
}

/** The configuration an imported target uses: the one of the same name here, else the first. */
export async function configurationNamed(q: Queryable, name: string): Promise<number> {
  const row = (await q.one<{ id: number }>('SELECT id FROM configurations WHERE name = $1 ORDER BY id LIMIT 1', [name])) ??
    (await q.one<{ id: number }>('SELECT min(id) AS id FROM configurations'));
  return row!.id;
}

export async function insertHosts(q: Queryable, sessionId: number, hosts: { Hop: number; Address: string; DnsName: string; Name: string; Notes: string }[], now: number): Promise<void> {
  for (const h of hosts) {
    await q.run(
      `INSERT INTO hosts (session_id, hop, address, dns_name, name, notes, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (session_id, hop) DO UPDATE SET address = excluded.address, dns_name = excluded.dns_name, name = excluded.name, notes = excluded.notes`,
      [sessionId, h.Hop, h.Address, h.DnsName, h.Name, h.Notes, now],
    );
  }
}

export async function setImportedFields(q: Queryable, sessionId: number, description: string, endTime: number | null): Promise<void> {
  await q.run('UPDATE sessions SET description = $2, end_time = $3 WHERE id = $1', [sessionId, description, endTime]);
}
