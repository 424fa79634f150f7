/** Made by rollup.config.mjs from the split build (dist/sdk-chunks.json): file names relative to the loader. */
declare module 'virtual:mp-element-chunks' {
  const chunks: {
    /** For each element, the chunks its definition needs, its own last. */
    elements: Readonly<Record<string, readonly string[]>>;
    /** The iframe mode's message handling. */
    embedMessages: string;
  };
  export default chunks;
}
