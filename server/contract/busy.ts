// How every "too busy, ask again" refusal starts: a read the store could not start in time
// (503 with Retry-After, server/store/db.ts StoreOverloaded; docs/store.md "Overload"), as a
// REST error body and as a hub method's completion error. The console tells by it a refusal
// that passes from one that stays (web/src/hub/connection.ts: a group join refused as busy is
// tried again, one refused for rights or a deleted target is not).
export const ServerBusyText = 'The server is too busy to answer now';

/** Seconds a refused caller is told to wait before it asks again (Retry-After). */
export const ServerBusyRetrySeconds = 5;

/** Whether an error's text is a "too busy, ask again" refusal. */
export const isServerBusy = (message: string): boolean => message.startsWith(ServerBusyText);
