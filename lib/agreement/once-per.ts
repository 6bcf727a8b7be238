/**
 * `derive` computed once per object and kept beside it (until the object is collected): rating
 * tables and what is counted from them are never changed once built, and one report reads the
 * same derived counts for several coefficients.
 */
export function oncePer<K extends object, V>(derive: (key: K) => V): (key: K) => V {
  const derived = new WeakMap<K, V>();
  return (key) => {
    let value = derived.get(key);
    if (value === undefined) derived.set(key, (value = derive(key)));
    return value;
  };
}
