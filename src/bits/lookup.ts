/**
 * Name → value lookups on user text. A plain object literal inherits from Object.prototype, so
 * `table["constructor"]` or `table["__proto__"]` finds something; every lookup of a user-given name
 * (an op, a dtype, a reduce op) goes through here and sees only the table's own keys.
 */

/**
 * The value `table` holds under `key` as its own property, or undefined.
 * @example lookupOwn({ add: 2 }, "constructor") // undefined
 */
export function lookupOwn<V>(table: Readonly<Record<string, V>>, key: string): V | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}
