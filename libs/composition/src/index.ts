export * from './ports';
export { openEmbeddedPorts } from './embedded-ports';
export { openDistributedPorts, type DistributedPorts, type Env } from './distributed-ports';
export * from './roles';
export * from './http';
export * from './service';
export * from './api';
export { PipelineThread } from './pipeline-thread/pipeline-thread';
export { pipelineApiPorts, type PipelineApiPorts } from './pipeline-thread/api-ports';
