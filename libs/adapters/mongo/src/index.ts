export { MongoAspectStore, openMongoAspectStore } from './mongo-aspect-store';
export { ASPECT_COLLECTION, rowId, type AspectDocument } from './aspect-document';
export { WRITE_LOCK_COLLECTION, WriteLockTimeoutError, aspectLockKey, type WriteLockDocument } from './aspect-write-locks';
export { WriteContentionError } from './versioned-write';
export { ENTITY_DIRECTORY_COLLECTION, type EntityDirectoryDocument } from './entity-directory';
export { isFerretDb } from './server-traits';
