/**
 * A schema built the first time it is used. The web build wraps the shared contracts' schemas in it
 * (vite-lazy-schemas.ts): building a zod schema runs a good deal of code, and a page's chunks import far
 * more of them than its first screen parses (every form, query and answer of a feature) — on a phone,
 * building them all was a fifth of the start-up's CPU time.
 *
 * The stand-in answers every reflective operation from the built schema, so zod, react-hook-form and
 * the app cannot tell it apart: `parse`, `instanceof z.ZodType`, `'_zod' in schema`, nesting it in
 * another schema. Its target is an empty object: a property the built schema holds non-configurable is
 * reported configurable, which the proxy invariants allow for a property the target lacks.
 */
export function lazySchema<T extends object>(make: () => T): T {
  let built: T | undefined;
  const schema = (): T => (built ??= make());
  return new Proxy({} as T, {
    get: (_target, key) => Reflect.get(schema(), key, schema()),
    set: (_target, key, value) => Reflect.set(schema(), key, value),
    has: (_target, key) => Reflect.has(schema(), key),
    ownKeys: () => Reflect.ownKeys(schema()),
    getOwnPropertyDescriptor: (_target, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(schema(), key);
      return descriptor === undefined ? undefined : { ...descriptor, configurable: true };
    },
    defineProperty: (_target, key, descriptor) => Reflect.defineProperty(schema(), key, descriptor),
    deleteProperty: (_target, key) => Reflect.deleteProperty(schema(), key),
    getPrototypeOf: () => Reflect.getPrototypeOf(schema()),
  });
}
