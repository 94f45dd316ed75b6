/**
 * The Confluent schema registry API subset that Avro producers use (`/schema-registry/api`), so
 * any Avro producer, e.g. the reference's Python Kafka emitter, can produce straight to Kafka.
 * Errors are Confluent's `{error_code, message}`.
 */
import express, { Router, type NextFunction, type Request, type Response } from 'express';
import { SchemaRegistryError, type SchemaRegistryCore } from '@cairn/events';

export const SCHEMA_REGISTRY_PREFIX = '/schema-registry/api';
const CONTENT_TYPE = 'application/vnd.schemaregistry.v1+json';

class RegistryHttpError extends Error {
  constructor(
    readonly status: number,
    readonly errorCode: number,
    message: string,
  ) {
    super(message);
  }
}

const subjectNotFound = (s: string) => new RegistryHttpError(404, 40401, `Subject '${s}' not found.`);

export function schemaRegistryRouter(registry: SchemaRegistryCore): Router {
  const router = Router();
  router.use(express.json({ type: () => true, limit: '4mb' }));
  const send = (res: Response, body: unknown) => res.type(CONTENT_TYPE).json(body);

  router.get('/subjects', (_req, res) => send(res, registry.subjects()));

  router.get('/subjects/:subject/versions', (req, res) => {
    const versions = registry.versions(req.params.subject);
    if (!versions.length) throw subjectNotFound(req.params.subject);
    send(res, versions);
  });

  router.get('/subjects/:subject/versions/:version', (req, res) => {
    const { subject, version } = req.params;
    const found = version === 'latest' ? registry.latest(subject) : /^\d+$/.test(version) ? registry.version(subject, Number(version)) : undefined;
    if (!registry.versions(subject).length) throw subjectNotFound(subject);
    if (!found) throw new RegistryHttpError(404, 40402, `Version ${version} not found.`);
    send(res, { subject: found.subject, version: found.version, id: found.id, schema: found.schema });
  });

  const schemaOf = (req: Request): string => {
    const schema = (req.body as { schema?: unknown } | undefined)?.schema;
    if (typeof schema !== 'string' || !schema) throw new RegistryHttpError(422, 42201, 'Request must carry a schema string');
    return schema;
  };

  router.post('/subjects/:subject/versions', (req, res) => {
    send(res, { id: registry.register(req.params.subject, schemaOf(req)).id });
  });

  /** Looks up whether a schema is registered under a subject. */
  router.post('/subjects/:subject', (req, res) => {
    const found = registry.lookup(req.params.subject, schemaOf(req));
    if (!found) throw new RegistryHttpError(404, 40403, 'Schema not found');
    send(res, { subject: found.subject, version: found.version, id: found.id, schema: found.schema });
  });

  router.get('/schemas/ids/:id', (req, res) => {
    const schema = /^\d+$/.test(req.params.id) ? registry.schemaById(Number(req.params.id)) : undefined;
    if (!schema) throw new RegistryHttpError(404, 40403, `Schema ${req.params.id} not found`);
    send(res, { schema });
  });

  router.get('/config', (_req, res) => send(res, { compatibilityLevel: 'NONE' }));

  router.use((err: unknown, _req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) return next(err);
    if (err instanceof RegistryHttpError) return void res.status(err.status).type(CONTENT_TYPE).json({ error_code: err.errorCode, message: err.message });
    if (err instanceof SchemaRegistryError) return void res.status(422).type(CONTENT_TYPE).json({ error_code: err.errorCode, message: err.message });
    const e = err as { type?: string; message?: string };
    if (e?.type === 'entity.parse.failed') return void res.status(400).type(CONTENT_TYPE).json({ error_code: 400, message: 'Malformed JSON' });
    next(err);
  });
  return router;
}
