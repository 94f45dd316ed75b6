/** Records of metadata files (as the reference's tools write them) turned into REST calls. */

export interface RestCall {
  readonly path: string;
  readonly body: unknown;
  /** A short description for progress and failure reports. */
  readonly label: string;
}

type Json = Record<string, unknown>;

function dropNulls(obj: Json): Json {
  return Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== null && v !== undefined));
}

/** One record: `{proposedSnapshot}` (an MCE) or an MCP with `aspect: {json}` or `{value, contentType}`. */
export function callOfRecord(record: unknown): RestCall {
  if (!record || typeof record !== 'object' || Array.isArray(record)) throw new Error('a record must be a JSON object');
  const r = record as Json;
  if (r.proposedSnapshot) {
    const snapshot = r.proposedSnapshot as Json;
    const body = (Object.values(snapshot)[0] ?? {}) as Json;
    return {
      path: '/entities?action=ingest',
      body: { entity: { value: snapshot }, ...(r.systemMetadata ? { systemMetadata: r.systemMetadata } : {}) },
      label: `snapshot ${String(body.urn)}`,
    };
  }
  if (typeof r.entityType === 'string') {
    const proposal = dropNulls({ ...r });
    delete proposal.auditHeader;
    const aspect = proposal.aspect as Json | undefined;
    if (aspect && 'json' in aspect) {
      proposal.aspect = { value: JSON.stringify(aspect.json), contentType: (aspect.contentType as string) ?? 'application/json' };
    }
    return {
      path: '/aspects?action=ingestProposal',
      body: { proposal },
      label: `${String(r.aspectName)} of ${String(r.entityUrn)}`,
    };
  }
  throw new Error('a record must have proposedSnapshot (MCE) or entityType (MCP)');
}

export function recordsOfFile(text: string): unknown[] {
  const data = JSON.parse(text) as unknown;
  return Array.isArray(data) ? data : [data];
}
