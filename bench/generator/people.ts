/** Users (with their groups) and groups. */
import type { MetadataChangeProposal } from '@cairn/events';
import type { CatalogShape } from './catalog-shape';
import { audit, upsert } from './proposal';
import type { Random } from './random';
import { sentence } from './text';
import { DOMAINS, TITLES } from './vocabulary';

export function userProposals(shape: CatalogShape, index: number, random: Random): MetadataChangeProposal[] {
  const urn = shape.urn('corpuser', index, random);
  const [first, last] = urn.slice('urn:li:corpuser:'.length).split('.').slice(1) as [string, string];
  const p = (aspect: string, value: unknown) => upsert('corpuser', urn, aspect, value);
  const cap = (s: string) => `${s[0]!.toUpperCase()}${s.slice(1)}`;
  const fullName = `${cap(first)} ${cap(last.replace(/\d+$/, ''))}`;
  return [
    p('corpUserInfo', {
      active: true,
      displayName: fullName,
      fullName,
      firstName: cap(first),
      lastName: cap(last.replace(/\d+$/, '')),
      email: `${first}.${last}@example.com`,
      title: random.pick(TITLES),
      departmentName: random.pick(DOMAINS),
      customProperties: {},
    }),
    p('groupMembership', { groups: [...new Set(Array.from({ length: random.int(1, 2) }, () => shape.anyUrn('corpGroup', random)))] }),
    p('status', { removed: false }),
  ];
}

export function groupProposals(shape: CatalogShape, index: number, random: Random): MetadataChangeProposal[] {
  const urn = shape.urn('corpGroup', index, random);
  const name = urn.slice('urn:li:corpGroup:'.length).split('.').slice(1).join('.');
  const admins = [...new Set(Array.from({ length: random.int(1, 2) }, () => shape.anyUrn('corpuser', random)))];
  return [
    upsert('corpGroup', urn, 'corpGroupInfo', {
      displayName: name.replace(/-/g, ' '),
      email: `${name}@example.com`,
      admins,
      members: admins,
      groups: [],
      description: sentence(random, 4, 12),
      created: audit(admins[0]!),
    }),
  ];
}
