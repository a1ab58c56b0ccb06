// Data file and report routes: GET /api/data/DownloadPP2File, POST /api/data/ImportPP2File/
// {summaryId} (spec 2 section 7), and the hop and samples reports (docs/api.md).
import { createReadStream, createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyMultipart from '@fastify/multipart';
import { requireUser } from '../account/authenticate.js';
import { Claim } from '../contract/account.js';
import type { DataService } from '../data/service.js';
import { targetIdArg, timeArg } from '../data/schemas.js';
import type { IngestPipeline } from '../ingest/pipeline.js';
import { badRequest, HttpError } from '../http/errors.js';
import { TargetIdResultSchema } from '../openapi/answers.js';
import { toCsv } from './csv.js';
import { dataFileName, writeDataFile, type DownloadArgs } from './export.js';
import { DataFileExtension } from './format.js';
import { importDataFile } from './import.js';
import { shownName } from './read-file.js';
import { HopReportColumns, hopReport, SampleReportColumns, samplesReport } from './reports.js';
import { clearTempFiles, tempDir } from './temp-files.js';
import { retentionDays } from '../store/retention-settings.js';
import type { RawRetention } from '../contract/datafiles.js';

const rangeQuery = (extra: Record<string, object> = {}) => ({
  type: 'object',
  required: ['ID'],
  properties: { ID: targetIdArg, BeginTime: timeArg, EndTime: timeArg, ...extra },
});
const maxSamples = { type: 'integer', minimum: 1, maximum: 2147483647 } as const;
const format = { type: 'string', enum: ['json', 'csv', 'JSON', 'CSV'] } as const;
const binary = { description: 'The data file (docs/data-file.md)', type: 'string', format: 'binary' } as const;
/** Reports by URL are capped: a samples report is one row of text per hop sample. */
export const MaxReportSamples = 1_000_000;

/** RFC 6266: an ASCII name for every client, the same in filename* for those that read it. */
function attachment(reply: FastifyReply, fileName: string): void {
  reply.header('content-disposition', `attachment; filename="${fileName}"; filename*=UTF-8''${encodeURIComponent(fileName)}`);
}

export default async function dataFilesPlugin(app: FastifyInstance, opts: { data: DataService; ingest: IngestPipeline }) {
  const limitBytes = app.config.maxImportMB * 1024 * 1024;
  const deps = { store: app.store, events: app.events, config: app.config, ingest: opts.ingest };
  clearTempFiles(app.config.dataDir);
  // @fastify/multipart streams the part to disk (never the whole upload in memory) and stops
  // it at the size limit; it is Fastify's own, kept with Fastify, on busboy.
  await app.register(fastifyMultipart, { limits: { fileSize: limitBytes, files: 1, fields: 10, parts: 11, fieldSize: 1024, headerPairs: 100 } });

  app.get<{ Querystring: DownloadArgs }>(
    '/api/data/DownloadPP2File',
    {
      config: { changesState: false, access: 'signedIn' },
      schema: { querystring: rangeQuery({ MaxSamples: maxSamples }), response: { 200: binary, 206: binary } },
    },
    async (request, reply) => {
      const p = requireUser(request);
      const dir = tempDir(app.config.dataDir);
      try {
        const file = await writeDataFile(app.store, p, request.query, dir.file('export.pp2'));
        const stream = createReadStream(dir.file('export.pp2'));
        stream.once('close', () => dir.remove());
        attachment(reply, file.fileName);
        reply.code(file.cut ? 206 : 200).type('application/vnd.apache.parquet');
        return reply.send(stream);
      } catch (err) {
        dir.remove();
        throw err;
      }
    },
  );

  // An upload whose declared size is over the limit is refused before its body is read.
  const refuseLarge = async (request: FastifyRequest) => {
    const declared = Number(request.headers['content-length'] ?? 0);
    if (declared > limitBytes + 64 * 1024) throw tooLarge();
  };
  const tooLarge = () => new HttpError(413, `The file is larger than the import limit of ${app.config.maxImportMB} MB (HOPWATCH_MAX_IMPORT_MB).`);

  app.post<{ Params: { summaryId?: string } }>(
    '/api/data/ImportPP2File/:summaryId?',
    {
      onRequest: refuseLarge,
      config: { access: { claim: Claim.TargetManagement } },
      schema: {
        params: { type: 'object', properties: { summaryId: { type: 'string', pattern: '^[0-9]{0,9}$' } } },
        response: { 200: TargetIdResultSchema, 204: { description: 'Imported into the summary', type: 'null' } },
      },
    },
    async (request, reply) => {
      const p = requireUser(request);
      if (!request.isMultipart()) throw badRequest('Send the file as multipart/form-data in the field "file".');
      const summaryId = request.params.summaryId ? Number(request.params.summaryId) : undefined;
      const part = await request.file().catch(() => undefined);
      if (!part || part.fieldname !== 'file') throw badRequest('Send the file as multipart/form-data in the field "file".');
      if (!part.filename.toLowerCase().endsWith(DataFileExtension)) {
        part.file.resume();
        throw badRequest(`Only ${DataFileExtension} files can be imported; ${shownName(part.filename)} is not one.`);
      }
      const dir = tempDir(app.config.dataDir);
      try {
        await pipeline(part.file, createWriteStream(dir.file('upload.pp2')));
        if (part.file.truncated) throw tooLarge();
        const result = await importDataFile(deps, p, { path: dir.file('upload.pp2'), name: part.filename }, summaryId);
        if (summaryId !== undefined) return reply.code(204).send();
        return { ID: result.ID };
      } catch (err) {
        if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
        throw err;
      } finally {
        dir.remove();
      }
    },
  );

  // The console's download menu says when a range is older than the raw samples kept.
  app.get(
    '/api/data/RawRetention',
    {
      config: { changesState: false, access: 'signedIn' },
      schema: {
        response: {
          200: { type: 'object', required: ['RetentionRawDays', 'RawKeptSince'], properties: { RetentionRawDays: { type: 'integer' }, RawKeptSince: { type: 'string' } } },
        },
      },
    },
    async (request): Promise<RawRetention> => {
      requireUser(request);
      const { rawDays } = await app.store.read((q) => retentionDays(q, app.config));
      return { RetentionRawDays: rawDays, RawKeptSince: new Date(Date.now() - rawDays * 86_400_000).toISOString() };
    },
  );

  app.get<{ Querystring: DownloadArgs & { Format?: string } }>(
    '/api/data/HopReport',
    { config: { changesState: false, access: 'signedIn' }, schema: { querystring: rangeQuery({ Format: format }) } },
    async (request, reply) => {
      const report = await hopReport(app.store, opts.data, requireUser(request), request.query);
      if ((request.query.Format ?? 'json').toLowerCase() === 'json') return report;
      attachment(reply, dataFileName(report.Target, report.Begin ? Date.parse(report.Begin) : null, '-hops.csv'));
      return reply.type('text/csv; charset=utf-8').send(toCsv([...HopReportColumns], report.Hops));
    },
  );

  app.get<{ Querystring: DownloadArgs & { Format?: string } }>(
    '/api/data/SamplesReport',
    { config: { changesState: false, access: 'signedIn' }, schema: { querystring: rangeQuery({ Format: format, MaxSamples: { ...maxSamples, maximum: MaxReportSamples } }) } },
    async (request, reply) => {
      const q = request.query;
      const { session: s, cut, rows } = await samplesReport(app.store, requireUser(request), { ...q, MaxSamples: q.MaxSamples ?? MaxReportSamples });
      reply.code(cut ? 206 : 200);
      if ((q.Format ?? 'json').toLowerCase() === 'json') return { TargetID: s.id, Target: s.targetName || s.originalTarget, Cut: cut, Samples: rows };
      attachment(reply, dataFileName(s.targetName || s.originalTarget, rows.length ? Date.parse(rows[0].Time) : null, '-samples.csv'));
      return reply.type('text/csv; charset=utf-8').send(toCsv([...SampleReportColumns], rows));
    },
  );
}
