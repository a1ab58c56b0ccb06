// State-changing /mainHub methods invoked while impersonating go to the impersonation audit,
// as the REST calls do (plugin.ts). A method is state-changing unless listed as a read
// below, so a new method is audited until someone says it only reads.
import type { HubLogger, HubMethod } from '../hub/index.js';
import type { Principal } from '../account/principal.js';
import type { Store } from '../store/db.js';
import { recordImpersonatedCall } from './service.js';

/** Methods that read or (un)subscribe and change nothing stored. */
export const ReadOnlyHubMethods: ReadonlySet<string> = new Set([
  'GetIsMagneto',
  'GetAgents',
  'GetCloudConnectEntitlement',
  'ColumnDefs',
  'TraceGraphRows',
  'DisplaySettings',
  'RegisterForNewSamples',
  'UnregisterForNewSamples',
  'RegisterForChangesToSummary',
  'UnregisterForChangesToSummary',
  'RegisterForComments',
  'UnregisterForComments',
  'GetComments',
  'GetSampleCountForSession',
  'DataPointBuckets',
  'RegisterForWisdom',
  'UnregisterForWisdom',
]);

/**
 * Wraps the handler of every state-changing method of a hub definition (before any
 * connection exists): the audit row is written after the method's access check passed and
 * before it runs. Calls the declaration refused are not written (REST writes those too).
 */
export function auditImpersonatedHubCalls(methods: Readonly<Record<string, HubMethod<Principal>>>, store: Store, log: HubLogger): void {
  const table = methods as Record<string, HubMethod<Principal>>;
  for (const [name, method] of Object.entries(table)) {
    if (ReadOnlyHubMethods.has(name)) continue;
    const handler = method.handler;
    table[name] = {
      ...method,
      handler: async (ctx, ...args) => {
        const p = ctx.principal;
        if (p.impersonator) {
          await recordImpersonatedCall(store, p, `hub ${name}`, 0, p.address ?? '').catch((err: unknown) => log.error({ err }, 'could not write the impersonation audit'));
        }
        return handler(ctx, ...args);
      },
    };
  }
}
