// Auto Setup links (spec 1 section 7): hopwatch://setup?mode=sentinel&id=..&key=..&server=..
// with the server URL-encoded. Shared by the server (makes them) and the agent (reads them).
export interface SetupLink {
  id: number;
  key: string;
  server: string;
}

export function formatSetupLink(l: SetupLink): string {
  return `hopwatch://setup?mode=sentinel&id=${l.id}&key=${encodeURIComponent(l.key)}&server=${encodeURIComponent(l.server)}`;
}

/** Reads a setup link; throws an Error a person can act on when it is not one. */
export function parseSetupLink(text: string): SetupLink {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new Error('This is not an Auto Setup link (expected hopwatch://setup?mode=sentinel&id=...&key=...&server=...).');
  }
  if (url.protocol !== 'hopwatch:') throw new Error('An Auto Setup link starts with hopwatch://');
  const q = url.searchParams;
  if (q.get('mode') !== 'sentinel') throw new Error('The Auto Setup link has no mode=sentinel.');
  const id = Number(q.get('id'));
  const key = q.get('key') ?? '';
  const server = q.get('server') ?? '';
  if (!Number.isInteger(id) || id < 1) throw new Error('The Auto Setup link has no valid agent id.');
  if (!key) throw new Error('The Auto Setup link has no key.');
  let s: URL;
  try {
    s = new URL(server);
  } catch {
    throw new Error('The Auto Setup link has no valid server address.');
  }
  if (s.protocol !== 'http:' && s.protocol !== 'https:') throw new Error('The server address of the Auto Setup link must be http:// or https://.');
  return { id, key, server: s.origin + s.pathname.replace(/\/+$/, '') };
}
