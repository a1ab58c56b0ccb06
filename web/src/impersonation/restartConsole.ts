// After impersonation starts or ends the session is someone else: every screen, atom and the
// live connection belong to the previous user, so the console starts over at the root.
export function restartConsoleAt(path = '/'): void {
  window.location.assign(path);
}
