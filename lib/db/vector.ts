/** pgvector's text form of a vector, `[0.1,0.2,...]`, as a query parameter or in a text[] of them. */
export function vectorLiteral(vector: readonly number[]): string {
  return `[${vector.join(',')}]`;
}
