/**
 * Every parameter of openapi.yaml (/v1) and app-services/openapi.yaml (/api) whose schema can
 * refuse a value carries its refusal text (`x-error-message`), and the compiled check of its
 * operation (src/http/openapi-params.ts) refuses values generated against the schema with exactly
 * that text, accepts a value matching it, and refuses it given twice. The texts themselves are
 * the documents'; the HTTP answers built on them are recorded by scripts/record-answers.ts.
 */
import fs from 'fs';
import fc from 'fast-check';
import { parse } from 'yaml';
import { compileParameterChecks, type RequestValues } from '../../../src/http/openapi-params';
import { DEFAULT_OPENAPI_PATH } from '../../../rest-adapter/app';
import { APP_OPENAPI_PATH } from '../../../app-services/index';

interface Schema {
  $ref?: string;
  type?: string;
  pattern?: string;
  enum?: string[];
  maxLength?: number;
  minimum?: number;
  maximum?: number;
}

type Messages = string | Record<string, string>;

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema: Schema;
  'x-error-message'?: Messages;
  'x-max-digits'?: number;
  $ref?: string;
}

interface Resolved {
  parameter: Parameter;
  schema: Schema;
}

interface Case extends Resolved {
  file: string;
  operation: string;
  method: string;
  path: string;
  /** the operation's other path and query parameters */
  others: Resolved[];
}

type Node = Record<string, unknown>;

function casesOf(file: string): Case[] {
  const doc = parse(fs.readFileSync(file, 'utf8')) as Node;
  const resolve = <T>(node: unknown): T => {
    let n = node as Node;
    while (typeof n?.$ref === 'string')
      n = (n.$ref as string)
        .slice(2)
        .split('/')
        .reduce((o: Node, k) => o[k] as Node, doc);
    return n as T;
  };
  return Object.entries(doc.paths as Record<string, Node>).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => ['get', 'post'].includes(method))
      .flatMap(([method, op]) => {
        const all = [...((item.parameters as unknown[]) ?? []), ...(((op as Node).parameters as unknown[]) ?? [])]
          .map((raw) => resolve<Parameter>(raw))
          .filter((p) => p.in === 'path' || p.in === 'query')
          .map((parameter): Resolved => ({ parameter, schema: resolve<Schema>(parameter.schema) }));
        return all.map((one) => ({
          ...one,
          file,
          operation: `${method.toUpperCase()} ${path}`,
          method,
          path,
          others: all.filter((p) => p !== one),
        }));
      }),
  );
}

const constrains = (s: Schema) =>
  s.type === 'integer' || s.pattern !== undefined || s.enum !== undefined || s.maxLength !== undefined;

const textOf = (messages: Messages | undefined, key: string): string | undefined =>
  typeof messages === 'string' ? (key === 'missing' || key === 'repeated' ? undefined : messages) : messages?.[key];

/** A value a schema accepts. */
function goodValue(schema: Schema): string {
  if (schema.enum) return schema.enum[0];
  if (schema.type === 'integer') return String(schema.minimum ?? 0);
  if (schema.pattern) return fc.sample(fc.stringMatching(new RegExp(schema.pattern)), { numRuns: 1, seed: 1 })[0];
  return 'x';
}

/** Values a schema refuses, each with the keyword that refuses it (`invalid`: any other). */
function badValues(schema: Schema, maxDigits: number | undefined): fc.Arbitrary<[string, string]> {
  const anyText = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.stringMatching(/^[0-9a-fA-Fx\-+. ]{0,70}$/));
  if (schema.type === 'integer') {
    const bad: fc.Arbitrary<[string, string]>[] = [
      anyText.filter((v) => !/^[0-9]+$/.test(v)).map((v): [string, string] => [v, 'invalid']),
    ];
    if (maxDigits !== undefined) bad.push(fc.constant(['0'.repeat(maxDigits) + '1', 'invalid'] as [string, string]));
    if (schema.minimum !== undefined && schema.minimum > 0)
      bad.push(fc.constant([String(schema.minimum - 1), 'invalid'] as [string, string]));
    if (schema.maximum !== undefined && schema.maximum < 1e15)
      bad.push(
        fc
          .bigInt({ min: BigInt(schema.maximum) + 1n, max: 10n ** BigInt(String(schema.maximum).length) - 1n })
          .map((v): [string, string] => [String(v), 'maximum']),
      );
    return fc.oneof(...bad);
  }
  const refused = (v: string) =>
    (schema.enum !== undefined && !schema.enum.includes(v)) ||
    (schema.pattern !== undefined && !new RegExp(schema.pattern, 'u').test(v)) ||
    (schema.maxLength !== undefined && [...v].length > schema.maxLength);
  const nearMisses = fc
    .tuple(fc.constant(goodValue(schema)), fc.nat(70), fc.constantFrom('', 'g', 'G', 'X', '.', ' ', '\u0000', 'é'))
    .chain(([v, at, c]) =>
      fc.constantFrom(v.slice(0, at) + c + v.slice(at), v.slice(0, at) + c + v.slice(at + 1), v.toUpperCase()),
    );
  return fc
    .oneof(anyText, nearMisses)
    .filter(refused)
    .map((v): [string, string] => [v, 'invalid']);
}

function request(c: Case, value: unknown): RequestValues {
  const values: RequestValues = { params: {}, query: {} };
  const where = (p: Parameter) => (p.in === 'path' ? values.params : values.query);
  for (const { parameter, schema } of c.others)
    if (parameter.in === 'path' || parameter.required) where(parameter)[parameter.name] = goodValue(schema);
  where(c.parameter)[c.parameter.name] = value;
  return values;
}

const DOCUMENTS = [DEFAULT_OPENAPI_PATH, APP_OPENAPI_PATH];
const CASES = DOCUMENTS.flatMap(casesOf);
const CHECKS = new Map(DOCUMENTS.map((file) => [file, compileParameterChecks(fs.readFileSync(file, 'utf8'))]));
const checkOf = (c: Case) => CHECKS.get(c.file)!(c.method, c.path);

describe('the parameters of both documents', () => {
  const constrained = CASES.filter((c) => constrains(c.schema));

  it('every parameter whose schema can refuse a value carries an x-error-message', () => {
    expect(constrained.length).toBeGreaterThan(30);
    expect(
      constrained
        .filter((c) => textOf(c.parameter['x-error-message'], 'invalid') === undefined)
        .map((c) => c.operation),
    ).toEqual([]);
  });

  it.each(constrained.map((c) => [`${c.operation} ${c.parameter.in}:${c.parameter.name}`, c] as const))(
    '%s: refused with exactly its x-error-message',
    (_name, c) => {
      const check = checkOf(c);
      const messages = c.parameter['x-error-message'];
      expect(check(request(c, goodValue(c.schema)))).toBeUndefined();
      fc.assert(
        fc.property(badValues(c.schema, c.parameter['x-max-digits']), ([value, keyword]) => {
          const expected = textOf(messages, keyword) ?? textOf(messages, 'invalid');
          expect(check(request(c, value))).toBe(expected);
        }),
        { numRuns: 60 },
      );
      const repeated = textOf(messages, 'repeated') ?? `query parameter ${c.parameter.name} given more than once`;
      if (c.parameter.in === 'query') expect(check(request(c, ['a', 'b']))).toBe(repeated);
    },
  );

  it('a parameter whose schema refuses nothing is refused only when missing or given twice', () => {
    const free = CASES.filter((c) => !constrains(c.schema));
    expect(free.length).toBeGreaterThan(5);
    for (const c of free) {
      const check = checkOf(c);
      fc.assert(
        fc.property(fc.string({ minLength: 1 }), (value) => expect(check(request(c, value))).toBeUndefined()),
        { numRuns: 20 },
      );
      if (c.parameter.required && c.parameter.in === 'query')
        expect(check(request(c, undefined))).toBe(textOf(c.parameter['x-error-message'], 'missing'));
    }
  });
});
