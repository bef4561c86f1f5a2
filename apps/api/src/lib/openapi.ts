import type { FastifyDynamicSwaggerOptions, SwaggerTransformObject } from '@fastify/swagger';
import type { FastifySchema } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorBody } from '@kadai/contracts';
import type { Config } from '../config.ts';
import { VERSION } from '../version.ts';

/*
 * The OpenAPI document served at /api/docs/json, built by @fastify/swagger from the route schemas.
 * What holds for every route is said here once rather than on each route: the 4xx answers the access
 * check and the validator give, an operationId made from the method and the path, and only the
 * schemas some operation uses. `apps/api/test/openapi-lint.test.ts` holds the document to Redocly's
 * `recommended` rules.
 */

/**
 * A response whose body is a file or text rather than JSON (a download, a feed, a CSV export): its media
 * types and what it holds. Fastify sends a Buffer, a stream, or a string with a non-JSON content type
 * as it is: the schema is never used to serialise the body, only to document it.
 */
export function fileResponse(mediaTypes: string | readonly string[], description: string) {
  const schema = z.string().describe(description);
  const types = typeof mediaTypes === 'string' ? [mediaTypes] : mediaTypes;
  return {
    description,
    content: Object.fromEntries(types.map((type) => [type, { schema }])),
  };
}

/** `GET /api/Assignment/:id/CourseSpecificDetail/` → `getAssignmentByIdCourseSpecificDetail`. */
export function operationIdOf(method: string, url: string): string {
  const words = url
    .replace(/^\/api\//, '/')
    .split('/')
    .filter((segment) => segment.length > 0)
    .map((segment) => (segment.startsWith(':') ? `By${pascalCase(segment.slice(1))}` : pascalCase(segment)));
  return method.toLowerCase() + words.join('');
}

function pascalCase(text: string): string {
  return text
    .split(/[^A-Za-z0-9]+/)
    .filter((word) => word.length > 0)
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join('');
}

type Access = 'public' | 'user' | 'staff';

/**
 * The 4xx answers every route gives whatever it does (lib/access.ts, lib/validation.ts and the error
 * handler in app.ts): 400 for a body or query that does not match its schema, 404 for a malformed path
 * parameter, 401 without a valid session on a signed-in route, 403 for a staff route called by others.
 */
export function commonErrors(schema: FastifySchema, access: Access | undefined): Record<number, z.ZodType> {
  const errors: Record<number, z.ZodType> = {};
  if (schema.body !== undefined || schema.querystring !== undefined) errors[400] = ErrorBody;
  if (access === 'user' || access === 'staff') errors[401] = ErrorBody;
  if (access === 'staff') errors[403] = ErrorBody;
  if (schema.params !== undefined) errors[404] = ErrorBody;
  return errors;
}

const transform: FastifyDynamicSwaggerOptions['transform'] = (document) => {
  const { schema, route } = document;
  if (!schema || (schema as { hide?: boolean }).hide) return jsonSchemaTransform(document);
  const declared = (schema.response ?? {}) as Record<string, unknown>;
  const method = typeof route.method === 'string' ? route.method : undefined;
  return jsonSchemaTransform({
    ...document,
    // A copy: the route's own schema is what Fastify validates and serialises with.
    schema: {
      ...schema,
      ...(method && !('operationId' in schema) ? { operationId: operationIdOf(method, route.url) } : {}),
      response: { ...commonErrors(schema, route.config?.access), ...declared },
    },
  });
};

type OpenApiObject = ReturnType<SwaggerTransformObject>;

/**
 * Every schema with an id is registered twice (as read and as written: `XInput` and `X`); only those
 * an operation reaches, directly or through another schema, stay in the document. `document` is the
 * fresh object jsonSchemaTransformObject made for this call: its schemas are removed in place.
 */
export function withoutUnusedSchemas(document: OpenApiObject): OpenApiObject {
  const schemas = 'components' in document ? document.components?.schemas : undefined;
  if (!schemas) return document;
  const prefix = '#/components/schemas/';
  const used = new Set<string>();
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) {
      value.forEach(visit);
    } else if (typeof value === 'object' && value !== null) {
      for (const [key, child] of Object.entries(value)) {
        if (key === '$ref' && typeof child === 'string' && child.startsWith(prefix)) {
          const name = child.slice(prefix.length);
          if (!used.has(name)) {
            used.add(name);
            visit(schemas[name]);
          }
        } else if (child !== schemas) {
          visit(child);
        }
      }
    }
  };
  visit(document);
  for (const name of Object.keys(schemas)) {
    if (!used.has(name)) Reflect.deleteProperty(schemas, name);
  }
  return document;
}

/** The options of @fastify/swagger for the API. */
export function openApiOptions(config: Config): FastifyDynamicSwaggerOptions {
  return {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: `${config.PRODUCT_NAME} API`,
        version: VERSION,
        description:
          'Every call of the product. Send `Authorization: Bearer <access>` from `POST /api/Auth/Token/`. ' +
          'Errors are `{ detail, code }`, with one key per field for bad input.',
      },
      // Relative: the origin that serves this document, whatever PUBLIC_URL or proxy is in front.
      servers: [{ url: '/', description: 'This server' }],
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      },
      security: [{ bearer: [] }],
    },
    transform,
    transformObject: (document) => withoutUnusedSchemas(jsonSchemaTransformObject(document)),
  };
}
