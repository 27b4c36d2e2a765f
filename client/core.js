// The search core alone: the dictionary engine and its text rules, without
// the culture layer, loaders, sessions, providers or fusion (all in the
// package root). scripts/client-size.sh measures it (bar: 10 kB min+gzip);
// an engine from here refuses a culture file.
export { createEngine } from './src/engine.js'
export { normalize, tokenize } from './src/text.js'
