/** The operations of the API as its OpenAPI document describes them: what the fuzzer sends requests to. */

export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
}

export interface Parameter {
  name: string;
  schema: JsonSchema;
  required: boolean;
}

export interface Operation {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
  /** As the document spells it: `/api/paineis/{id}`. */
  path: string;
  /** `POST /api/paineis/{id}`. */
  key: string;
  pathParams: Parameter[];
  queryParams: Parameter[];
  body: JsonSchema | null;
  /** Whether the route needs no session (`security: []`). */
  public: boolean;
}

interface OpenApiOperation {
  security?: unknown[];
  parameters?: Array<{ in: string; name: string; required?: boolean; schema?: JsonSchema }>;
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}

interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components?: { schemas?: Record<string, JsonSchema> };
}

/** Replaces every `$ref` by the schema it names, so generators see plain schemas. */
function resolve(schema: JsonSchema, components: Record<string, JsonSchema>, depth = 0): JsonSchema {
  if (depth > 20) return {};
  if (schema.$ref) {
    const name = schema.$ref.replace('#/components/schemas/', '');
    return resolve(components[name] ?? {}, components, depth + 1);
  }
  const out: JsonSchema = { ...schema };
  if (schema.items) out.items = resolve(schema.items, components, depth + 1);
  if (schema.properties) {
    out.properties = Object.fromEntries(
      Object.entries(schema.properties).map(([k, v]) => [k, resolve(v, components, depth + 1)]),
    );
  }
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    if (schema[key]) out[key] = schema[key].map((s) => resolve(s, components, depth + 1));
  }
  return out;
}

/** Every operation of the document, in its order. */
export function operationsOf(document: unknown): Operation[] {
  const doc = document as OpenApiDocument;
  const components = doc.components?.schemas ?? {};
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const params = op.parameters ?? [];
      const pick = (where: string) =>
        params
          .filter((p) => p.in === where)
          .map((p) => ({ name: p.name, schema: resolve(p.schema ?? {}, components), required: !!p.required }));
      const bodySchema = op.requestBody?.content?.['application/json']?.schema;
      const upper = method.toUpperCase() as Operation['method'];
      operations.push({
        method: upper,
        path,
        key: `${upper} ${path}`,
        pathParams: pick('path'),
        queryParams: pick('query'),
        body: bodySchema ? resolve(bodySchema, components) : null,
        public: Array.isArray(op.security) && op.security.length === 0,
      });
    }
  }
  return operations;
}

/** Whether a client can send the operation anything: a path parameter, a query parameter or a body. */
export const takesInput = (op: Operation) => op.pathParams.length + op.queryParams.length > 0 || op.body !== null;
