// The client's types from an OpenAPI document (openapi-typescript), as checked in at src/schema.ts.
// The generate script and the drift test (apps/server/src/__tests__/client-types.test.ts) both call this.
import openapiTS, { astToString } from 'openapi-typescript';

const HEADER = `// Generated from the Titan server's OpenAPI document by \`npm run generate -w @titan/client\`.
// Do not edit: a test fails when this file and the server's document differ.
`;

export async function typesFor(doc: object): Promise<string> {
  const ast = await openapiTS(doc as Parameters<typeof openapiTS>[0], { alphabetize: true });
  return HEADER + astToString(ast);
}
