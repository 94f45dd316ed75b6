/** JSON Patch (RFC 6902) over plain JSON values, as used by PATCH proposals. */
import { canonicalJson } from './aspect-values';

export interface PatchOperation {
  readonly op: 'add' | 'remove' | 'replace' | 'move' | 'copy' | 'test';
  readonly path: string;
  readonly from?: string;
  readonly value?: unknown;
}

export class PatchError extends Error {}

const OPS = new Set(['add', 'remove', 'replace', 'move', 'copy', 'test']);

/** Checks the shape of a patch document; throws PatchError with the first problem. */
export function parsePatch(doc: unknown): PatchOperation[] {
  if (!Array.isArray(doc)) throw new PatchError('A JSON patch must be an array of operations');
  return doc.map((op, i) => {
    if (!op || typeof op !== 'object') throw new PatchError(`Patch operation #${i} must be an object`);
    const o = op as Record<string, unknown>;
    if (!OPS.has(String(o.op))) throw new PatchError(`Patch operation #${i} has an unknown op '${String(o.op)}'`);
    if (typeof o.path !== 'string' || (o.path !== '' && !o.path.startsWith('/'))) throw new PatchError(`Patch operation #${i} needs a path starting with /`);
    if ((o.op === 'move' || o.op === 'copy') && typeof o.from !== 'string') throw new PatchError(`Patch operation #${i} needs 'from'`);
    if ((o.op === 'add' || o.op === 'replace' || o.op === 'test') && !('value' in o)) throw new PatchError(`Patch operation #${i} needs 'value'`);
    return o as unknown as PatchOperation;
  });
}

function tokens(path: string): string[] {
  return path === '' ? [] : path.slice(1).split('/').map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

type Container = Record<string, unknown> | unknown[];

/** An own member only: inherited ones (`__proto__`, `constructor`) are not part of a JSON document. */
function member(obj: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(obj, key) ? obj[key] : undefined;
}

function parentOf(root: unknown, path: string): { parent: Container; key: string } {
  const ts = tokens(path);
  if (ts.length === 0) throw new PatchError('The whole document cannot be the target of this operation');
  let node: unknown = root;
  for (const t of ts.slice(0, -1)) {
    if (Array.isArray(node)) node = node[Number(t)];
    else if (node && typeof node === 'object') node = member(node as Record<string, unknown>, t);
    else node = undefined;
    if (node === undefined || node === null || typeof node !== 'object') throw new PatchError(`Path ${path} does not exist`);
  }
  return { parent: node as Container, key: ts[ts.length - 1] };
}

function arrayIndex(arr: unknown[], key: string, forInsert: boolean): number {
  if (forInsert && key === '-') return arr.length;
  const i = Number(key);
  if (!/^\d+$/.test(key) || i > arr.length || (!forInsert && i === arr.length)) throw new PatchError(`Array index ${key} is out of range`);
  return i;
}

function get(root: unknown, path: string): unknown {
  if (path === '') return root;
  const { parent, key } = parentOf(root, path);
  const v = Array.isArray(parent) ? parent[arrayIndex(parent, key, false)] : member(parent, key);
  if (v === undefined) throw new PatchError(`Path ${path} does not exist`);
  return v;
}

function remove(root: unknown, path: string): unknown {
  const { parent, key } = parentOf(root, path);
  if (Array.isArray(parent)) return parent.splice(arrayIndex(parent, key, false), 1)[0];
  if (!Object.hasOwn(parent, key)) throw new PatchError(`Path ${path} does not exist`);
  const v = parent[key];
  delete parent[key];
  return v;
}

function add(root: unknown, path: string, value: unknown): unknown {
  if (path === '') return value;
  const { parent, key } = parentOf(root, path);
  if (Array.isArray(parent)) parent.splice(arrayIndex(parent, key, true), 0, value);
  // Defined, not assigned: assigning `__proto__` would replace the object's prototype.
  else Object.defineProperty(parent, key, { value, writable: true, enumerable: true, configurable: true });
  return root;
}

/** Applies the operations to a copy of the document and returns the result. */
export function applyPatch(document: unknown, ops: readonly PatchOperation[]): unknown {
  let doc: unknown = structuredClone(document);
  for (const op of ops) {
    switch (op.op) {
      case 'add':
        doc = add(doc, op.path, structuredClone(op.value));
        break;
      case 'remove':
        remove(doc, op.path);
        break;
      case 'replace':
        if (op.path === '') doc = structuredClone(op.value);
        else {
          remove(doc, op.path);
          doc = add(doc, op.path, structuredClone(op.value));
        }
        break;
      case 'move': {
        const v = remove(doc, op.from as string);
        doc = add(doc, op.path, v);
        break;
      }
      case 'copy':
        doc = add(doc, op.path, structuredClone(get(doc, op.from as string)));
        break;
      case 'test':
        if (canonicalJson(get(doc, op.path)) !== canonicalJson(op.value)) throw new PatchError(`Test failed at ${op.path}`);
        break;
    }
  }
  return doc;
}
