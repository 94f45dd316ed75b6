/** The Chart and Dashboard types and their queries. */
import type { GraphqlContext } from '../context';
import { existing, keyOf, refOf, requireRef, type EntityRef } from '../refs';
import { auditStamp, commonFields, customProperties, editableDescription, fromAspect } from './aspect-fields';
import { graphFields } from './relationships';

/** The reference shows the BI tool as the platform. */
const toolPlatform = (ref: EntityRef, _args: unknown, ctx: GraphqlContext) =>
  refOf(ctx, `urn:li:dataPlatform:${keyOf(ctx, ref).dashboardTool}`);

function infoProperties(value: any, ref: EntityRef) {
  return {
    name: value.title,
    description: value.description ?? null,
    externalUrl: value.externalUrl ?? null,
    access: value.access ?? null,
    customProperties: customProperties(value.customProperties, ref.urn),
    lastRefreshed: value.lastRefreshed ?? null,
    created: auditStamp(value.lastModified?.created),
    lastModified: auditStamp(value.lastModified?.lastModified),
    deleted: value.lastModified?.deleted ? auditStamp(value.lastModified.deleted) : null,
  };
}

export const chartDashboardResolvers = {
  Query: {
    chart: (_: unknown, args: { urn: string }, ctx: GraphqlContext) => existing(ctx, requireRef(ctx, args.urn, 'chart')),
    dashboard: (_: unknown, args: { urn: string }, ctx: GraphqlContext) => existing(ctx, requireRef(ctx, args.urn, 'dashboard')),
  },
  Chart: {
    ...commonFields,
    ...graphFields,
    tool: (ref: EntityRef, _args: unknown, ctx: GraphqlContext) => keyOf(ctx, ref).dashboardTool,
    chartId: (ref: EntityRef, _args: unknown, ctx: GraphqlContext) => keyOf(ctx, ref).chartId,
    platform: toolPlatform,
    properties: fromAspect('chartInfo', (v, ref) => ({ ...infoProperties(v, ref), chartUrl: v.chartUrl ?? null, type: v.type ?? null })),
    editableProperties: editableDescription('editableChartProperties'),
    query: fromAspect('chartQuery'),
  },
  Dashboard: {
    ...commonFields,
    ...graphFields,
    tool: (ref: EntityRef, _args: unknown, ctx: GraphqlContext) => keyOf(ctx, ref).dashboardTool,
    dashboardId: (ref: EntityRef, _args: unknown, ctx: GraphqlContext) => keyOf(ctx, ref).dashboardId,
    platform: toolPlatform,
    properties: fromAspect('dashboardInfo', (v, ref) => ({ ...infoProperties(v, ref), dashboardUrl: v.dashboardUrl ?? null })),
    editableProperties: editableDescription('editableDashboardProperties'),
  },
};
