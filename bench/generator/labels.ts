/** Tags and glossary terms. */
import type { MetadataChangeProposal } from '@cairn/events';
import type { CatalogShape } from './catalog-shape';
import { upsert } from './proposal';
import type { Random } from './random';
import { sentence } from './text';

export function tagProposals(shape: CatalogShape, index: number, random: Random): MetadataChangeProposal[] {
  const urn = shape.urn('tag', index, random);
  const name = urn.slice('urn:li:tag:'.length);
  const color = random.int(0, 0xffffff).toString(16).padStart(6, '0');
  return [upsert('tag', urn, 'tagProperties', { name, description: sentence(random, 4, 12), colorHex: `#${color}` })];
}

export function termProposals(shape: CatalogShape, index: number, random: Random): MetadataChangeProposal[] {
  const urn = shape.urn('glossaryTerm', index, random);
  const name = urn.slice('urn:li:glossaryTerm:'.length).split('.').slice(1).join(' ');
  return [upsert('glossaryTerm', urn, 'glossaryTermInfo', { name, definition: sentence(random, 8, 24), termSource: 'INTERNAL', customProperties: {} })];
}
