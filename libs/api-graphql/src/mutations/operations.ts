/** reportOperation: an operation (insert, update, ...) on a dataset, kept as a time-series value. */
import type { GraphqlContext } from '../context';
import { mutate } from './changeset';

interface ReportOperationInput {
  urn: string;
  operationType: string;
  customOperationType?: string | null;
  sourceType: string;
  customProperties?: { key: string; value?: string | null }[] | null;
  partition?: string | null;
  numAffectedRows?: number | null;
  timestampMillis?: number | null;
}

export const operationMutations = {
  reportOperation: (_: unknown, { input }: { input: ReportOperationInput }, ctx: GraphqlContext) =>
    mutate(ctx, async (cs) => {
      const dataset = await cs.existing(input.urn, ['dataset']);
      cs.set(dataset, 'operation', {
        timestampMillis: cs.stamp.time,
        lastUpdatedTimestamp: input.timestampMillis ?? cs.stamp.time,
        actor: cs.stamp.actor,
        operationType: input.operationType,
        sourceType: input.sourceType,
        ...(input.customOperationType != null ? { customOperationType: input.customOperationType } : {}),
        ...(input.numAffectedRows != null ? { numAffectedRows: input.numAffectedRows } : {}),
        ...(input.partition != null ? { partitionSpec: { type: 'PARTITION', partition: input.partition } } : {}),
        ...(input.customProperties ? { customProperties: Object.fromEntries(input.customProperties.map((p) => [p.key, p.value ?? ''])) } : {}),
      });
      return dataset.urn;
    }),
};
