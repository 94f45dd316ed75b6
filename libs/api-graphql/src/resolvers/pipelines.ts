/** Data flows (pipelines) and data jobs (tasks). */
import type { GraphqlContext } from '../context';
import { existing, keyOf, refOf, refsOf, requireRef, type EntityRef } from '../refs';
import { commonFields, customProperties, editableDescription, fromAspect } from './aspect-fields';
import { graphFields } from './relationships';

function infoProperties(v: any, ref: EntityRef) {
  return {
    name: v.name,
    description: v.description ?? null,
    project: v.project ?? null,
    externalUrl: v.externalUrl ?? null,
    customProperties: customProperties(v.customProperties, ref.urn),
  };
}

export const pipelineResolvers = {
  Query: {
    dataFlow: (_: unknown, args: { urn: string }, ctx: GraphqlContext) => existing(ctx, requireRef(ctx, args.urn, 'dataFlow')),
    dataJob: (_: unknown, args: { urn: string }, ctx: GraphqlContext) => existing(ctx, requireRef(ctx, args.urn, 'dataJob')),
  },
  DataFlow: {
    ...commonFields,
    ...graphFields,
    orchestrator: (ref: EntityRef, _args: unknown, ctx: GraphqlContext) => keyOf(ctx, ref).orchestrator,
    flowId: (ref: EntityRef, _args: unknown, ctx: GraphqlContext) => keyOf(ctx, ref).flowId,
    cluster: (ref: EntityRef, _args: unknown, ctx: GraphqlContext) => keyOf(ctx, ref).cluster,
    platform: (ref: EntityRef, _args: unknown, ctx: GraphqlContext) => refOf(ctx, `urn:li:dataPlatform:${keyOf(ctx, ref).orchestrator}`),
    properties: fromAspect('dataFlowInfo', infoProperties),
    editableProperties: editableDescription('editableDataFlowProperties'),
  },
  DataJob: {
    ...commonFields,
    ...graphFields,
    jobId: (ref: EntityRef, _args: unknown, ctx: GraphqlContext) => keyOf(ctx, ref).jobId,
    dataFlow: (ref: EntityRef, _args: unknown, ctx: GraphqlContext) => refOf(ctx, keyOf(ctx, ref).flow),
    properties: fromAspect('dataJobInfo', infoProperties),
    editableProperties: editableDescription('editableDataJobProperties'),
    inputOutput: fromAspect<any>('dataJobInputOutput', (v, _ref, ctx) => ({
      inputDatasets: refsOf(ctx, v.inputDatasets ?? []),
      outputDatasets: refsOf(ctx, v.outputDatasets ?? []),
      inputDatajobs: refsOf(ctx, v.inputDatajobs ?? []),
    })),
  },
};
