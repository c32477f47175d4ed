// Kubernetes protobuf (`application/vnd.kubernetes.protobuf`) bodies and watch frames.
export { decodeProtobufObject, encodeProtobufObject, encodeWatchFrame, hasProtobufForm, NoProtobufForm, ProtobufError } from './envelope';
export type { DecodedObject } from './envelope';
