export * from './ports';
export { openEmbeddedPorts } from './embedded-ports';
export { openDistributedPorts, type DistributedPorts, type Env } from './distributed-ports';
export * from './roles';
export * from './http';
export * from './service';
export * from './api';
