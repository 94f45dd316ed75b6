/**
 * Policies are dataHubPolicy entities, read from the store (not the search index, which lags)
 * and cached briefly; changes made through this store show at once in this process.
 */
import type { AspectReads } from '@cairn/ports';
import { POLICY_ENTITY, POLICY_INFO, type PolicyInfo, type StoredPolicy } from '../policies';
import { removal, upsert, type Proposer } from './proposals';
import { LoadingCache } from './loading-cache';

const SCAN_PAGE = 1000;

export class PolicyStore {
  private readonly cache: LoadingCache<readonly StoredPolicy[]>;

  constructor(
    private readonly store: AspectReads,
    private readonly proposer: Proposer,
    cacheMs: number,
  ) {
    this.cache = new LoadingCache(cacheMs, () => this.read());
  }

  all(): Promise<readonly StoredPolicy[]> {
    return this.cache.get('all');
  }

  private async read(): Promise<readonly StoredPolicy[]> {
    const policies: StoredPolicy[] = [];
    for (let start = 0; ; start += SCAN_PAGE) {
      const rows = await this.store.scanLatest({ entityType: POLICY_ENTITY, aspect: POLICY_INFO, start, limit: SCAN_PAGE });
      for (const r of rows) policies.push({ urn: r.urn, info: JSON.parse(r.metadata) as PolicyInfo });
      if (rows.length < SCAN_PAGE) return policies;
    }
  }

  async get(urn: string): Promise<StoredPolicy | undefined> {
    const [row] = await this.store.getLatest([urn], [POLICY_INFO]);
    return row ? { urn, info: JSON.parse(row.metadata) as PolicyInfo } : undefined;
  }

  forget(): void {
    this.cache.clear();
  }

  async save(policies: readonly StoredPolicy[], actor: string): Promise<void> {
    await this.proposer.propose(policies.map((p) => upsert(POLICY_ENTITY, p.urn, POLICY_INFO, p.info)), { actor });
    this.cache.clear();
  }

  async remove(urn: string, actor: string): Promise<void> {
    await this.proposer.propose([removal(POLICY_ENTITY, urn, 'dataHubPolicyKey')], { actor });
    this.cache.clear();
  }
}
