// The target "/" shows: the one opened last in this browser tab, until it is closed.
const OpenTargetKey = 'hopwatch-open-target';

export function rememberOpenTarget(id: string): void {
  sessionStorage.setItem(OpenTargetKey, id);
}
export function forgetOpenTarget(id: string): void {
  if (sessionStorage.getItem(OpenTargetKey) === id) sessionStorage.removeItem(OpenTargetKey);
}
export function openTarget(): string | undefined {
  return sessionStorage.getItem(OpenTargetKey) ?? undefined;
}
