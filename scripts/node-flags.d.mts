/** The Node flags every holdpoint process runs with (see node-flags.mjs). */
export declare const NODE_FLAGS: readonly string[];
