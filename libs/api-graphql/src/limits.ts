/**
 * Limits that keep one request from overloading the server: query depth, an estimated cost
 * (fields × requested page sizes) checked before execution, and a maximum page size.
 */
import {
  GraphQLError,
  Kind,
  type DocumentNode,
  type FragmentDefinitionNode,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValueNode,
} from 'graphql';
import type { ApolloServerPlugin } from '@apollo/server';

export interface GraphqlLimits {
  /** Deepest allowed field nesting (UI entity queries reach about 12). */
  readonly maxDepth: number;
  /** Largest estimated cost: each field costs 1, multiplied by the page sizes above it. */
  readonly maxCost: number;
  /** Larger `count` / `limit` arguments are lowered to this. */
  readonly maxPageSize: number;
}

export const DEFAULT_LIMITS: GraphqlLimits = { maxDepth: 20, maxCost: 100_000, maxPageSize: 1000 };

/** A page size within [0, maxPageSize]. */
export function pageSize(requested: number | null | undefined, fallback: number, limits: GraphqlLimits): number {
  const n = requested ?? fallback;
  return Math.max(0, Math.min(n, limits.maxPageSize));
}

const PAGE_ARGUMENTS = new Set(['count', 'limit']);

function valueOf(node: ValueNode, variables: Record<string, unknown>): unknown {
  if (node.kind === Kind.VARIABLE) return variables[node.name.value];
  if (node.kind === Kind.INT) return Number(node.value);
  if (node.kind === Kind.OBJECT) return Object.fromEntries(node.fields.map((f) => [f.name.value, valueOf(f.value, variables)]));
  return undefined;
}

/** The page size a field asks for, at top level or inside its `input` object; 1 when none. */
function multiplier(args: readonly { name: { value: string }; value: ValueNode }[], variables: Record<string, unknown>, limits: GraphqlLimits): number {
  let size = 1;
  const consider = (name: string, value: unknown) => {
    if (PAGE_ARGUMENTS.has(name) && typeof value === 'number') size = Math.max(size, Math.min(value, limits.maxPageSize));
  };
  for (const arg of args) {
    const value = valueOf(arg.value, variables);
    consider(arg.name.value, value);
    if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) consider(k, v);
  }
  return size;
}

interface Measure {
  depth: number;
  cost: number;
}

function measure(
  set: SelectionSetNode,
  fragments: ReadonlyMap<string, FragmentDefinitionNode>,
  variables: Record<string, unknown>,
  limits: GraphqlLimits,
  visiting: Set<string>,
): Measure {
  let depth = 0;
  let cost = 0;
  for (const sel of set.selections) {
    if (sel.kind === Kind.FIELD) {
      const child = sel.selectionSet ? measure(sel.selectionSet, fragments, variables, limits, visiting) : { depth: 0, cost: 0 };
      depth = Math.max(depth, 1 + child.depth);
      cost += 1 + multiplier(sel.arguments ?? [], variables, limits) * child.cost;
      continue;
    }
    const inner = sel.kind === Kind.INLINE_FRAGMENT ? sel.selectionSet : fragments.get(sel.name.value)?.selectionSet;
    const name = sel.kind === Kind.FRAGMENT_SPREAD ? sel.name.value : undefined;
    if (!inner || (name && visiting.has(name))) continue;
    if (name) visiting.add(name);
    const m = measure(inner, fragments, variables, limits, visiting);
    if (name) visiting.delete(name);
    depth = Math.max(depth, m.depth);
    cost += m.cost;
  }
  return { depth, cost };
}

export function measureOperation(document: DocumentNode, operation: OperationDefinitionNode, variables: Record<string, unknown>, limits: GraphqlLimits): Measure {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const def of document.definitions) if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def);
  return measure(operation.selectionSet, fragments, variables, limits, new Set());
}

function refused(message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code: 'QUERY_TOO_COMPLEX', http: { status: 400 } } });
}

/** Checks each operation once it is parsed and validated, before any resolver runs. */
export function limitsPlugin(limits: GraphqlLimits): ApolloServerPlugin {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ document, operation, request }) {
          if (!operation) return;
          const { depth, cost } = measureOperation(document, operation, request.variables ?? {}, limits);
          if (depth > limits.maxDepth) throw refused(`Query depth ${depth} exceeds the limit of ${limits.maxDepth}`);
          if (cost > limits.maxCost) throw refused(`Query cost ${cost} exceeds the limit of ${limits.maxCost} (fields multiplied by page sizes)`);
        },
      };
    },
  };
}
