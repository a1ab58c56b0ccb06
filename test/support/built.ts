// The built engine and server modules (dist/), typed by their sources. Suites that run the
// engine's worker pool or the ingest workers must load the built files (the workers are
// found beside them), but the type-checker reads the sources: `npm run typecheck` then
// checks the tests on a fresh clone, before anything is built. `npm test` builds first.
import type * as EngineModule from '../../engine/index.js';
import type * as StoreModule from '../../server/store/db.js';
import type * as PipelineModule from '../../server/ingest/pipeline.js';
import type * as EventsModule from '../../server/events.js';

/** import() of a file under dist/, as the type of its source module. */
const built = <T>(path: string): Promise<T> => import(new URL(`../../dist/${path}`, import.meta.url).href) as Promise<T>;

export const engine = await built<typeof EngineModule>('engine/index.js');
export const { Store } = await built<typeof StoreModule>('server/store/db.js');
export const { IngestPipeline } = await built<typeof PipelineModule>('server/ingest/pipeline.js');
export const { DomainEventBus } = await built<typeof EventsModule>('server/events.js');
