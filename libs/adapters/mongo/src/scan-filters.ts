/** Filters over many rows: by URN, and the latest rows a scan or count selects. */
import type { Filter } from 'mongodb';
import type { AspectScan } from '@cairn/ports';
import type { AspectDocument } from './aspect-document';
import { text } from './checked-values';
import { entityTypeRegex, likeToRegex } from './urn-patterns';

export function byUrn(urn: string): Filter<AspectDocument> {
  return { urn: text(urn, 'urn') };
}

export function byAspect(urn: string, aspect: string): Filter<AspectDocument> {
  return { urn: text(urn, 'urn'), aspect: text(aspect, 'aspect') };
}

export function latestMatching(scan: Omit<AspectScan, 'start' | 'limit'>): Filter<AspectDocument> {
  const clauses: Filter<AspectDocument>[] = [{ version: 0 }];
  if (scan.urn) clauses.push(byUrn(scan.urn));
  if (scan.aspect) clauses.push({ aspect: text(scan.aspect, 'aspect') });
  if (scan.urnLike) clauses.push({ urn: { $regex: likeToRegex(text(scan.urnLike, 'urnLike')) } });
  if (scan.entityType) clauses.push({ urn: { $regex: entityTypeRegex(text(scan.entityType, 'entityType')) } });
  if (scan.after) {
    const urn = text(scan.after.urn, 'after.urn');
    clauses.push({ $or: [{ urn: { $gt: urn } }, { urn, aspect: { $gt: text(scan.after.aspect, 'after.aspect') } }] });
  }
  return clauses.length === 1 ? clauses[0]! : { $and: clauses };
}
