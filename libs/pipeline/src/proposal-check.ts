/**
 * Checks a proposal against the model. The same checks run at the REST edge (to answer 4xx)
 * and in the persister (proposals produced straight to the log are not trusted either).
 */
import {
  badRequest,
  canonicalJson,
  formatUrn,
  parsePatch,
  PatchError,
  RestliError,
  unprocessable,
  UrnSyntaxError,
  validateValue,
  withSystemMetadataDefaults,
  type AspectSpec,
  type EntitySpec,
  type PatchOperation,
  type Registry,
} from '@cairn/core';
import type { ChangeType, MetadataChangeProposal } from '@cairn/events';

export const JSON_CONTENT = 'application/json';
export const JSON_PATCH_CONTENT = 'application/json-patch+json';
const CHANGE_TYPES: ReadonlySet<string> = new Set<ChangeType>(['UPSERT', 'CREATE', 'UPDATE', 'DELETE', 'PATCH', 'RESTATE']);

export interface CheckedProposal {
  /** The proposal with its URN filled, its value normalized and systemMetadata defaults set. */
  readonly mcp: MetadataChangeProposal;
  readonly entity: EntitySpec;
  readonly aspect: AspectSpec;
  readonly urn: string;
  /** Parsed value of an upsert. */
  readonly value?: unknown;
  /** Parsed operations of a PATCH. */
  readonly patch?: PatchOperation[];
}

function parseJson(text: unknown, what: string): unknown {
  if (typeof text !== 'string') throw badRequest(`${what} must be a string holding JSON`);
  try {
    return JSON.parse(text);
  } catch (err) {
    throw badRequest(`${what} is not valid JSON: ${(err as Error).message}`);
  }
}

/** Validates a value against an aspect's schema; 422 listing what is wrong. */
export function checkAspectValue(aspect: AspectSpec, value: unknown, urn: string): unknown {
  const { value: normalized, errors } = validateValue(value, aspect.type);
  if (errors.length) {
    throw unprocessable(`Failed to validate aspect ${aspect.name} of ${urn}: ${errors.join('; ')}`);
  }
  return normalized;
}

function urnFromKeyAspect(entity: EntitySpec, mcp: MetadataChangeProposal): string {
  if (!mcp.entityKeyAspect) throw badRequest('Proposal needs an entityUrn or an entityKeyAspect');
  const key = parseJson(mcp.entityKeyAspect.value, 'entityKeyAspect.value') as Record<string, unknown>;
  checkAspectValue(entity.keyAspect, key, `(key of ${entity.name})`);
  const parts = entity.keyAspect.type.fields.filter((f) => key[f.name] !== undefined).map((f) => String(key[f.name]));
  return formatUrn(entity.name, parts);
}

/**
 * The checked form of a proposal, kept on the proposal object the check made. Through the embedded
 * log the persister receives the very object the edge checked and appended; a proposal decoded
 * from a log, or coming from anywhere else, is a new object and is checked in full. A property
 * rather than a WeakMap entry: an entry whose value holds its key outlived young-generation
 * collections, so every checked proposal was copied and promoted (1.5 MB a collection on the
 * embedded API thread, docs/performance-log.md); the property dies with its proposal. Not enumerable,
 * so a change log spread from the proposal does not carry it, and a symbol's property is neither
 * serialized nor copied to another thread.
 */
const CHECKED = Symbol('checked');

type Checkable = MetadataChangeProposal & { [CHECKED]?: CheckedProposal };

function remember(checked: CheckedProposal): CheckedProposal {
  Object.defineProperty(checked.mcp, CHECKED, { value: checked });
  return checked;
}

/** `checkProposal`, unless `mcp` is the proposal of a check made in this process. */
export function checkProposalOnce(registry: Registry, mcp: MetadataChangeProposal, now: number): CheckedProposal {
  return (mcp as Checkable)[CHECKED] ?? checkProposal(registry, mcp, now);
}

/** Whether `mcp` is the proposal of a check made in this thread. */
export function wasCheckedHere(mcp: MetadataChangeProposal): boolean {
  return (mcp as Checkable)[CHECKED] !== undefined;
}

/**
 * Takes `mcp` as checked: it is a copy of the proposal of a check another thread of this process
 * made (`wasCheckedHere` there), so only what the check derived is derived again, its value parsed
 * and nothing validated. The embedded catalog's pipeline thread gets the edge's proposals this way.
 */
export function adoptCheckedProposal(registry: Registry, mcp: MetadataChangeProposal): void {
  const entity = registry.entity(mcp.entityType);
  const aspect = mcp.aspectName === undefined ? undefined : entity?.aspects.get(mcp.aspectName);
  if (!entity || !aspect || mcp.entityUrn === undefined) throw new Error(`proposal for ${mcp.entityUrn ?? mcp.entityType} was not checked`);
  const urn = mcp.entityUrn;
  const text = mcp.aspect?.value;
  if (mcp.changeType === 'PATCH') remember({ mcp, entity, aspect, urn, patch: parsePatch(JSON.parse(text!)) });
  else if (mcp.changeType !== 'DELETE') remember({ mcp, entity, aspect, urn, value: JSON.parse(text!) });
  else remember({ mcp, entity, aspect, urn });
}

export function checkProposal(registry: Registry, mcp: MetadataChangeProposal, now: number): CheckedProposal {
  return remember(checkFields(registry, mcp, now));
}

function checkFields(registry: Registry, mcp: MetadataChangeProposal, now: number): CheckedProposal {
  if (!mcp || typeof mcp !== 'object') throw badRequest('Missing proposal');
  if (typeof mcp.entityType !== 'string' || !mcp.entityType) throw badRequest('Proposal needs an entityType');
  const entity = registry.entity(mcp.entityType);
  if (!entity) throw badRequest(`Unknown entity type '${mcp.entityType}'`);
  const urn = mcp.entityUrn ?? urnFromKeyAspect(entity, mcp);
  let urnEntity: EntitySpec;
  try {
    urnEntity = registry.parseEntityUrn(urn).entity;
  } catch (err) {
    if (err instanceof UrnSyntaxError) throw badRequest(err.message);
    throw err;
  }
  if (urnEntity !== entity) {
    throw badRequest(`Entity type '${mcp.entityType}' does not match the urn '${urn}' (an urn of entity type '${urnEntity.name}')`);
  }
  if (!CHANGE_TYPES.has(mcp.changeType)) throw badRequest(`Unsupported changeType '${String(mcp.changeType)}'`);
  if (typeof mcp.aspectName !== 'string' || !mcp.aspectName) throw badRequest('Proposal needs an aspectName');
  const aspect = entity.aspects.get(mcp.aspectName);
  if (!aspect) {
    const known = registry.aspect(mcp.aspectName);
    throw badRequest(known ? `Aspect '${mcp.aspectName}' is not an aspect of entity '${entity.name}'` : `Unknown aspect '${mcp.aspectName}'`);
  }
  if (aspect.kind === 'timeseries' && mcp.changeType !== 'UPSERT') {
    throw badRequest(`Time-series aspect '${aspect.name}' only accepts UPSERT, got ${mcp.changeType}`);
  }
  const systemMetadata = withSystemMetadataDefaults(mcp.systemMetadata, now);
  const checked = (extra: Partial<MetadataChangeProposal>, fields: Partial<CheckedProposal> = {}): CheckedProposal => {
    // A literal key first, then the proposal's fields, then the derived ones set over them
    // (docs/performance.md, "Objects that begin with a spread").
    const checkedMcp = { systemMetadata, ...mcp, ...extra };
    checkedMcp.entityType = entity.name;
    checkedMcp.entityUrn = urn;
    checkedMcp.systemMetadata = systemMetadata;
    return { entity, aspect, urn, ...fields, mcp: checkedMcp };
  };

  if (mcp.changeType === 'DELETE') return checked({});
  const contentType = mcp.aspect?.contentType ?? JSON_CONTENT;
  if (!mcp.aspect || mcp.aspect.value === undefined) throw badRequest(`A ${mcp.changeType} proposal needs an aspect value`);
  if (mcp.changeType === 'PATCH') {
    if (contentType !== JSON_PATCH_CONTENT) throw badRequest(`A PATCH proposal needs contentType ${JSON_PATCH_CONTENT}, got ${contentType}`);
    if (aspect.kind === 'key') throw badRequest('The key aspect cannot be patched');
    try {
      const patch = parsePatch(parseJson(mcp.aspect.value, 'aspect.value'));
      return checked({}, { patch });
    } catch (err) {
      if (err instanceof PatchError) throw badRequest(err.message);
      throw err;
    }
  }
  if (contentType !== JSON_CONTENT) throw badRequest(`Unsupported aspect contentType '${contentType}' (expected ${JSON_CONTENT})`);
  const value = checkAspectValue(aspect, parseJson(mcp.aspect.value, 'aspect.value'), urn);
  if (aspect.kind === 'key') {
    const expected = registry.keyFromUrn(registry.parseEntityUrn(urn).urn, entity);
    if (canonicalJson(expected) !== canonicalJson(value)) throw badRequest(`Key aspect ${aspect.name} does not match the urn ${urn}`);
  }
  return checked({ aspect: { value: JSON.stringify(value), contentType: JSON_CONTENT } }, { value });
}

export function isClientError(err: unknown): err is RestliError {
  return err instanceof RestliError && err.status >= 400 && err.status < 500;
}
