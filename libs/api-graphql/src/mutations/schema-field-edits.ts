/**
 * Edits of one dataset schema field, kept in editableSchemaMetadata as the reference does. A field
 * is named by its fieldPath, plain (`a.b`) or version 2 (`[version=2.0].[type=struct].a.[type=string].b`);
 * both forms name the same field, compared by their plain form.
 */
import { badInput } from '../errors';
import type { EntityRef } from '../refs';
import type { Changeset } from './changeset';

/** The plain form: the dot-joined segments that are not bracketed. */
export function plainFieldPath(path: string): string {
  // Brackets may hold dots (`[version=2.0]`), so segments are matched rather than split.
  const segments = path.match(/\[[^\]]*\]|[^.[\]]+/g) ?? [];
  return segments.filter((s) => !s.startsWith('[')).join('.');
}

export interface EditableFieldInfo {
  fieldPath: string;
  description?: string;
  globalTags?: { tags: { tag: string }[] };
  glossaryTerms?: { terms: { urn: string }[]; auditStamp: unknown };
}

interface EditableSchemaMetadata {
  editableSchemaFieldInfo: EditableFieldInfo[];
  created?: unknown;
  lastModified?: unknown;
}

/** The schema's own fieldPath of the field the caller named; an error when the schema has no such field. */
export async function requireSchemaField(cs: Changeset, dataset: EntityRef, fieldPath: string | null | undefined): Promise<string> {
  if (!fieldPath) throw badInput('A schema field edit needs the field path as subResource');
  if (dataset.entityName !== 'dataset') throw badInput(`Schema fields belong to datasets; ${dataset.urn} is a ${dataset.entityName}`);
  const schema = await cs.current<{ fields?: { fieldPath: string }[] }>(dataset, 'schemaMetadata');
  if (!schema) throw badInput(`Dataset ${dataset.urn} has no schema, so it has no field ${fieldPath}`);
  const wanted = plainFieldPath(fieldPath);
  const field = (schema.fields ?? []).find((f) => f.fieldPath === fieldPath) ?? (schema.fields ?? []).find((f) => plainFieldPath(f.fieldPath) === wanted);
  if (!field) throw badInput(`Field ${fieldPath} does not exist in the schema of dataset ${dataset.urn}`);
  return field.fieldPath;
}

/** Applies `change` to the field's editable entry, creating the entry (and the aspect) when missing. */
export async function editSchemaField(cs: Changeset, dataset: EntityRef, fieldPath: string, change: (info: EditableFieldInfo) => EditableFieldInfo): Promise<void> {
  await cs.update<EditableSchemaMetadata>(dataset, 'editableSchemaMetadata', (current) => {
    const infos = [...(current?.editableSchemaFieldInfo ?? [])];
    const plain = plainFieldPath(fieldPath);
    const i = infos.findIndex((f) => plainFieldPath(f.fieldPath) === plain);
    const edited = change(i >= 0 ? { ...infos[i] } : { fieldPath });
    if (i >= 0) infos[i] = edited;
    else infos.push(edited);
    return { ...current, created: current?.created ?? cs.stamp, lastModified: cs.stamp, editableSchemaFieldInfo: infos };
  });
}
