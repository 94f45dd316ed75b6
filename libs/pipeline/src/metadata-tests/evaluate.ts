/** Evaluating metadata tests against an entity's latest aspects. */
import { isUrn, notFound, UrnSyntaxError, type Registry } from '@cairn/core';
import type { AspectReader } from '@cairn/ports';
import { parseTestDefinition, type Operator, type Rule, type TestDefinition } from './test-definition';

export interface MetadataTest {
  readonly urn: string;
  readonly definition: TestDefinition;
}

export interface TestResult {
  readonly test: string;
  readonly type: 'SUCCESS' | 'FAILURE';
}

export interface TestResults {
  readonly passing: TestResult[];
  readonly failing: TestResult[];
}

/** How many URN hops a property may take (`container.container.glossaryTerms...`). */
const MAX_HOPS = 5;
const TEST_INFO = 'testInfo';
const TEST_ENTITY = 'test';
const SCAN_BATCH = 1000;

interface TestInfo {
  readonly definition?: { readonly type?: string; readonly json?: string };
}

const flat = (values: unknown[]) => values.flatMap((v) => (Array.isArray(v) ? v : [v])).filter((v) => v !== null && v !== undefined);
const text = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function holds(operator: Operator, resolved: unknown[], params: readonly string[]): boolean {
  const values = resolved.map(text);
  const [first = ''] = params;
  switch (operator) {
    case 'equals':
    case 'any_equals':
    case 'contains_any':
      return values.some((v) => params.includes(v));
    case 'exists':
      return values.some((v) => v !== '');
    case 'contains_str':
      return values.some((v) => params.some((p) => v.includes(p)));
    case 'starts_with':
      return values.some((v) => params.some((p) => v.startsWith(p)));
    case 'regex_match':
      return values.some((v) => params.some((p) => new RegExp(p).test(v)));
    case 'greater_than':
      return values.some((v) => Number(v) > Number(first));
    case 'less_than':
      return values.some((v) => Number(v) < Number(first));
    case 'is_true':
      return values.includes('true');
    case 'is_false':
      return values.includes('false');
  }
}

export class MetadataTestEvaluator {
  constructor(
    private readonly registry: Registry,
    private readonly store: AspectReader,
  ) {}

  /**
   * The tests asked for (each must exist and parse), or every stored test whose definition parses.
   */
  async tests(testUrns?: readonly string[]): Promise<MetadataTest[]> {
    if (testUrns) {
      const rows = await this.store.getLatest(testUrns, [TEST_INFO]);
      const byUrn = new Map(rows.map((r) => [r.urn, r]));
      return testUrns.map((urn) => {
        const row = byUrn.get(urn);
        if (!row) throw notFound(`Test ${urn} does not exist`);
        return { urn, definition: parseTestDefinition(urn, (JSON.parse(row.metadata) as TestInfo).definition?.json ?? '') };
      });
    }
    const tests: MetadataTest[] = [];
    for (let start = 0; ; start += SCAN_BATCH) {
      const rows = await this.store.scanLatest({ entityType: TEST_ENTITY, aspect: TEST_INFO, start, limit: SCAN_BATCH });
      for (const row of rows) {
        try {
          tests.push({ urn: row.urn, definition: parseTestDefinition(row.urn, (JSON.parse(row.metadata) as TestInfo).definition?.json ?? '') });
        } catch {
          // A stored test that does not parse is not run unless asked for by name.
        }
      }
      if (rows.length < SCAN_BATCH) return tests;
    }
  }

  /** Tests whose targeting does not select the entity are in neither list. */
  async evaluate(urn: string, tests: readonly MetadataTest[]): Promise<TestResults> {
    const entityType = this.registry.parseEntityUrn(urn).entity.name;
    const aspects = new Map<string, Promise<unknown>>();
    const results: TestResults = { passing: [], failing: [] };
    for (const t of tests) {
      const targets = [...t.definition.targets].filter(([type]) => this.registry.entity(type)?.name === entityType);
      if (targets.length === 0) continue;
      const [, conditions] = targets[0];
      if (conditions && !(await this.check(conditions, urn, aspects))) continue;
      if (await this.check(t.definition.rules, urn, aspects)) results.passing.push({ test: t.urn, type: 'SUCCESS' });
      else results.failing.push({ test: t.urn, type: 'FAILURE' });
    }
    return results;
  }

  private async check(rule: Rule, urn: string, aspects: Map<string, Promise<unknown>>): Promise<boolean> {
    switch (rule.kind) {
      case 'not':
        return !(await this.check(rule.rule, urn, aspects));
      case 'and':
      case 'or': {
        let result = rule.kind === 'and';
        for (const r of rule.rules) {
          const v = await this.check(r, urn, aspects);
          if (rule.kind === 'and' ? !v : v) {
            result = v;
            break;
          }
        }
        return result !== rule.negated;
      }
      case 'predicate':
        return holds(rule.operator, await this.resolve(urn, rule.property, 0, aspects), rule.values) !== rule.negated;
    }
  }

  /** Values of a property path from an entity: its first part is an aspect, the rest its fields. */
  private async resolve(urn: string, path: readonly string[], hops: number, aspects: Map<string, Promise<unknown>>): Promise<unknown[]> {
    if (hops > MAX_HOPS) return [];
    const value = await this.aspectValue(urn, path[0], aspects);
    return value === undefined ? [] : this.walk([value], path.slice(1), hops, aspects);
  }

  /**
   * Fields of records, arrays spread; where a path goes on from a URN (or from a record that names
   * one in `urn`, like a term association) it continues in that entity's aspects.
   */
  private async walk(values: unknown[], path: readonly string[], hops: number, aspects: Map<string, Promise<unknown>>): Promise<unknown[]> {
    if (path.length === 0) return flat(values);
    const [field, ...rest] = path;
    const out: unknown[] = [];
    for (const v of flat(values)) {
      if (isRecord(v) && field in v) out.push(...(await this.walk([v[field]], rest, hops, aspects)));
      else if (typeof v === 'string' && isUrn(v)) out.push(...(await this.resolve(v, path, hops + 1, aspects)));
      else if (isRecord(v) && typeof v.urn === 'string') out.push(...(await this.resolve(v.urn, path, hops + 1, aspects)));
    }
    return out;
  }

  private aspectValue(urn: string, aspect: string, cache: Map<string, Promise<unknown>>): Promise<unknown> {
    const key = `${urn}\u0000${aspect}`;
    let value = cache.get(key);
    if (!value) {
      value = this.loadAspect(urn, aspect);
      cache.set(key, value);
    }
    return value;
  }

  private async loadAspect(urn: string, aspect: string): Promise<unknown> {
    let parsed;
    try {
      parsed = this.registry.parseEntityUrn(urn);
    } catch (err) {
      if (err instanceof UrnSyntaxError) return undefined;
      throw err;
    }
    const spec = parsed.entity.aspects.get(aspect);
    if (!spec) return undefined;
    if (spec.kind === 'key') return this.registry.keyFromUrn(parsed.urn, parsed.entity);
    const [row] = await this.store.getLatest([urn], [aspect]);
    return row ? JSON.parse(row.metadata) : undefined;
  }
}
