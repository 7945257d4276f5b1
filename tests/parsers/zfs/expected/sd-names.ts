/** Linux sdX names in kernel order, for the long dRAID fixtures: sd('b', 'y') → sdb … sdy; sd('ab', 'ax') → sdab … sdax. */
export const sd = (from: string, to: string): string[] => {
  const prefix = from.slice(0, -1);
  if (to.slice(0, -1) !== prefix) throw new Error(`sd(${from}, ${to}): different prefixes`);
  const a = from.at(-1)!.charCodeAt(0); const b = to.at(-1)!.charCodeAt(0);
  return Array.from({ length: b - a + 1 }, (_, i) => `sd${prefix}${String.fromCharCode(a + i)}`);
};
