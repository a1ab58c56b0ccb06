// The staff pages take their filter from the address (?userId=, ?accountId=), so pages link to each other.
export function idParam(params: URLSearchParams, name: string): number | undefined {
  const v = params.get(name);
  if (!v || !/^\d{1,10}$/.test(v)) return undefined;
  const n = Number(v);
  return n >= 1 && n <= 2_147_483_647 ? n : undefined;
}
