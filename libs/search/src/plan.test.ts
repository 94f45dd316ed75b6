import { defaultRegistry, RestliError } from '@cairn/core';
import { normalizeBrowsePath, planAutocomplete, planSearch } from './plan';
import { planFilter } from './filters';
import { parseInput } from './query-input';
import { searchSchemaOf } from './search-schema';

const schema = searchSchemaOf(defaultRegistry());
const DS = ['dataset'];

function badRequest(run: () => unknown, message: RegExp): void {
  try {
    run();
  } catch (err) {
    expect(err).toBeInstanceOf(RestliError);
    expect((err as RestliError).status).toBe(400);
    expect((err as RestliError).message).toMatch(message);
    return;
  }
  throw new Error('expected a 400');
}

describe('search input', () => {
  it('splits terms, phrases and field:value, * and blanks for everything', () => {
    expect(parseInput('*')).toEqual([]);
    expect(parseInput('   ')).toEqual([]);
    expect(parseInput('sample  kafka*')).toEqual([
      { text: 'sample', quoted: false },
      { text: 'kafka', quoted: false },
    ]);
    expect(parseInput('"page views" AND tags:pii name:"a b"')).toEqual([
      { text: 'page views', quoted: true },
      { field: 'tags', text: 'pii', quoted: false },
      { field: 'name', text: 'a b', quoted: true },
    ]);
    expect(parseInput('&& -')).toEqual([]);
  });
});

describe('planned search', () => {
  it('queries default fields with their boosts, field:value on the field and its aliases', () => {
    const q = planSearch(schema, { entityTypes: ['DATASET'], input: 'sample tags:pii' });
    expect(q.entityTypes).toEqual(['dataset']);
    const [words, value] = q.terms;
    expect(words).toMatchObject({ kind: 'words', text: 'sample', prefix: true });
    expect(words.fields).toEqual(expect.arrayContaining([{ field: 'id', boost: 10 }, { field: 'fieldPaths', boost: 5 }, { field: 'urn', boost: 1 }]));
    expect(words.fields.map((f) => f.field)).not.toContain('owners');
    expect(value).toMatchObject({ kind: 'value', text: 'pii' });
    expect(value.fields.map((f) => f.field).sort()).toEqual(['editedFieldTags', 'fieldTags', 'tags']);
    expect(q.rankText).toBe('sample');
    expect(q.facets.map((f) => f.field)).toEqual(expect.arrayContaining(['platform', 'origin', 'tags', 'owners', '_entityType']));
    expect(q.facets.find((f) => f.field === 'origin')).toEqual({ field: 'origin', displayName: 'Environment', size: 20 });
  });

  it('treats an unknown field prefix and a URN as plain text', () => {
    const q = planSearch(schema, { entityTypes: DS, input: 'foo:bar urn:li:tag:x' });
    expect(q.terms[0]).toMatchObject({ kind: 'words', text: 'foo:bar' });
    expect(q.terms[1]).toEqual({ kind: 'value', text: 'urn:li:tag:x', fields: [{ field: 'urn', boost: 1 }] });
  });

  it('rejects unknown entity types and sort fields', () => {
    badRequest(() => planSearch(schema, { entityTypes: ['spaceship'], input: '*' }), /Unknown entity type 'spaceship'/);
    badRequest(() => planSearch(schema, { entityTypes: DS, input: '*', sort: { field: 'nope' } }), /Unknown sort field 'nope'/);
    badRequest(() => planSearch(schema, { entityTypes: DS, input: '*', sort: { field: 'urn', order: 'UP' } }), /ASCENDING or DESCENDING/);
  });

  it('autocompletes the autocomplete fields, or one field asked for', () => {
    expect(planAutocomplete(schema, { entityTypes: DS, query: ' sam ', limit: 5 }).fields.map((f) => f.field).sort()).toEqual(['id', 'name', 'platform', 'qualifiedName']);
    expect(planAutocomplete(schema, { entityTypes: DS, query: 'x', field: 'id', limit: 5 }).fields).toEqual([{ field: 'id', boost: 10 }]);
    badRequest(() => planAutocomplete(schema, { entityTypes: DS, query: 'x', field: 'nope', limit: 5 }), /Unknown autocomplete field/);
  });

  it('marks the fields whole-value lookups never read: word fields neither autocompleted nor sharing a name with a value field', () => {
    const mapping = (entityType: string, field: string) => schema.mappings().get(entityType)?.get(field);
    expect(mapping('dataset', 'fieldDescriptions')).toMatchObject({ type: 'TEXT', lookupTerms: false });
    expect(mapping('dataset', 'description')?.lookupTerms).toBe(false);
    expect(planSearch(schema, { entityTypes: DS, input: 'fieldDescriptions:Total' }).terms[0]).toMatchObject({ kind: 'words' });
    expect(mapping('dataset', 'name')).toMatchObject({ autocomplete: true, lookupTerms: true, prefixLookups: true });
    expect(mapping('dataset', 'tags')).toMatchObject({ lookupTerms: true, prefixLookups: false });
    expect(mapping('dataset', 'fieldPaths')).toMatchObject({ lookupTerms: false, manyValues: true });
    expect(mapping('dataset', 'tags')?.lookupTerms).toBe(true);
    // Ranking over every entity type looks up `name` wherever it is, autocompleted there or not.
    expect(mapping('test', 'name')).toMatchObject({ autocomplete: false, lookupTerms: true, prefixLookups: true });
    expect(planSearch(schema, { entityTypes: [], input: 'x' }).rankFields).toContain('name');
    // `type:x` over every entity type is a value lookup (chart's type is a keyword), mlModel's word field included.
    expect(mapping('mlModel', 'type')).toMatchObject({ type: 'TEXT_PARTIAL', lookupTerms: true });
    expect(planSearch(schema, { entityTypes: [], input: 'type:NEURAL_NETWORK' }).terms[0]).toMatchObject({ kind: 'value' });
  });
});

describe('planned filters', () => {
  it('reads the or/and form and the legacy criteria form', () => {
    const or = planFilter(schema, DS, { or: [{ and: [{ field: 'origin', value: 'PROD', condition: 'EQUAL' }] }] });
    const legacy = planFilter(schema, DS, { criteria: [{ field: 'origin', value: 'PROD' }] });
    expect(or).toEqual({ filter: [[{ fields: ['origin'], condition: 'EQUAL', values: ['PROD'], negated: false }]], includeRemoved: false });
    expect(legacy).toEqual(or);
  });

  it('expands aliases, splits comma lists but not URNs, lowercases booleans', () => {
    const { filter } = planFilter(schema, DS, {
      or: [
        {
          and: [
            { field: 'tags', value: 'urn:li:tag:a,urn:li:tag:b' },
            { field: 'upstreams', value: 'urn:li:dataset:(urn:li:dataPlatform:hive,x,PROD)' },
            { field: 'description', values: ['x'], condition: 'CONTAIN', negated: true },
          ],
        },
      ],
    });
    expect([...filter[0][0].fields].sort()).toEqual(['editedFieldTags', 'fieldTags', 'tags']);
    expect(filter[0][0].values).toEqual(['urn:li:tag:a', 'urn:li:tag:b']);
    expect(filter[0][1].values).toEqual(['urn:li:dataset:(urn:li:dataPlatform:hive,x,PROD)']);
    expect(filter[0][2]).toMatchObject({ fields: expect.arrayContaining(['description', 'editedDescription']), condition: 'CONTAIN', negated: true });
    expect(planFilter(schema, DS, { criteria: [{ field: 'removed', value: 'True' }] })).toEqual({
      filter: [[{ fields: ['removed'], condition: 'EQUAL', values: ['true'], negated: false }]],
      includeRemoved: true,
    });
  });

  it('matches everything for an empty conjunction', () => {
    expect(planFilter(schema, DS, { or: [{ and: [] }, { and: [{ field: 'origin', value: 'PROD' }] }] }).filter).toEqual([]);
  });

  it('rejects unknown fields and conditions, missing values and malformed shapes', () => {
    badRequest(() => planFilter(schema, DS, { criteria: [{ field: 'colour', value: 'red' }] }), /Unknown filter field 'colour'/);
    badRequest(() => planFilter(schema, DS, { criteria: [{ field: 'origin', value: 'PROD', condition: 'ROUGHLY' }] }), /Unknown filter condition 'ROUGHLY'/);
    badRequest(() => planFilter(schema, DS, { criteria: [{ field: 'origin', condition: 'EQUAL' }] }), /needs a value/);
    badRequest(() => planFilter(schema, DS, { or: 'x' }), /must be a list/);
    badRequest(() => planFilter(schema, DS, 7), /must be an object/);
    badRequest(() => planFilter(schema, DS, { criteria: [{ value: 'x' }] }), /needs a 'field'/);
    expect(planFilter(schema, DS, { criteria: [{ field: 'tags', condition: 'EXISTS' }] }).filter[0][0].values).toEqual([]);
  });
});

describe('browse paths', () => {
  it('normalizes slashes and rejects empty segments', () => {
    expect(normalizeBrowsePath('')).toBe('');
    expect(normalizeBrowsePath('/')).toBe('');
    expect(normalizeBrowsePath('/prod/kafka/')).toBe('/prod/kafka');
    expect(normalizeBrowsePath('prod')).toBe('/prod');
    badRequest(() => normalizeBrowsePath('/prod//kafka'), /Malformed browse path/);
  });
});
