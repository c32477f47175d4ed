// The package ships an ESM build at index.mjs with the same API as its typed CommonJS main.
declare module 'fast-json-patch/index.mjs' {
  export * from 'fast-json-patch';
}
