// The generic store: create, update, delete and get of any resource, with the object semantics
// of kube-apiserver's generic registry (system fields, generation, status handling, optimistic
// concurrency, finalizers, dry run). Handlers do HTTP; the store does objects. This module is
// the store's public face; each operation lives in its own store-*.ts file.
export { MAX_OBJECT_BYTES, checkNamespace, getObject, mapStorageError, type WriteResult } from './store-common';
export { createObject } from './store-create';
export { updateObject, type UpdateOptions } from './store-update';
export { deleteObject, type DeleteOptions, type DeleteResult } from './store-delete';
