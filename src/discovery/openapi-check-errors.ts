/** The error a document with problems stops start-up with, naming every problem (from either side of the check's thread). */
export function invalidOpenApiError(problems: string[]): Error {
  return new Error(`The OpenAPI document is not valid OpenAPI 3.1:\n  ${problems.join("\n  ")}`);
}
