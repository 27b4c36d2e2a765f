// The search core alone (engine + text rules), for bundlers that want the
// smallest build; scripts/client-size.sh measures it (bar: 10 kB min+gzip).
export { createEngine } from './src/engine.js'
export { normalize, tokenize } from './src/text.js'
