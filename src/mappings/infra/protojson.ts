/**
 * proto-JSON of transaction messages, built by reflection over the contract
 * descriptor (src/lib/contract/descriptor.json, read as plain JSON data).
 *
 * Why not protobufjs: its encode/decode/toObject are generated with
 * `new Function`, which the mapping sandbox must not depend on. Here a
 * message is walked field by field: proto field names (snake_case), `@type`
 * first, 64-bit integers as strings, bytes as base64, enums as names,
 * Timestamps as RFC 3339, defaults emitted (unset messages null, unset oneof
 * members omitted) — the Cosmos SDK's proto-JSON.
 *
 * Inputs are either `decodedMsg` values of the node (camelCase keys, Long for
 * 64-bit integers, Buffers for bytes) or the output of `decodeWire` below
 * (snake_case keys, bigint, Uint8Array); both are read.
 */
import { toBase64 } from '@cosmjs/encoding';
import descriptor from '../../lib/contract/descriptor.json';
import { utf8String } from './bytes';

interface FieldDef {
  type: string;
  id: number;
  rule?: 'repeated';
  keyType?: string;
}
interface MessageDef {
  fields: Record<string, FieldDef>;
  oneofs?: Record<string, { oneof: string[] }>;
  nested?: Record<string, unknown>;
}
interface EnumDef {
  values: Record<string, number>;
}
interface Namespace {
  nested?: Record<string, Namespace & Partial<MessageDef> & Partial<EnumDef>>;
}

interface MessageInfo {
  kind: 'message';
  fullName: string;
  def: MessageDef;
  /** field name -> resolved full type name (messages and enums only) */
  fieldTypes: Map<string, string>;
  oneofMembers: Set<string>;
}
interface EnumInfo {
  kind: 'enum';
  fullName: string;
  names: Map<number, string>;
}
type TypeInfo = MessageInfo | EnumInfo;

const SCALARS_64 = new Set(['int64', 'uint64', 'sint64', 'fixed64', 'sfixed64']);
const SCALARS = new Set([
  'double',
  'float',
  'int32',
  'uint32',
  'sint32',
  'fixed32',
  'sfixed32',
  'bool',
  'string',
  'bytes',
  ...SCALARS_64,
]);

const types = new Map<string, TypeInfo>();

function collect(ns: Namespace, prefix: string): void {
  for (const [name, node] of Object.entries(ns.nested ?? {})) {
    const fullName = prefix ? `${prefix}.${name}` : name;
    if (node.fields) {
      const def = node as unknown as MessageDef;
      const oneofMembers = new Set(Object.values(def.oneofs ?? {}).flatMap((o) => o.oneof));
      types.set(fullName, { kind: 'message', fullName, def, fieldTypes: new Map(), oneofMembers });
    } else if (node.values) {
      const names = new Map(Object.entries(node.values).map(([k, v]) => [v as number, k]));
      types.set(fullName, { kind: 'enum', fullName, names });
    }
    collect(node, fullName);
  }
}
collect(descriptor as unknown as Namespace, '');

/** protobuf name resolution: innermost scope first (message, package, parents), then absolute. */
function resolveTypeName(ref: string, scope: string): string | undefined {
  if (ref.startsWith('.')) return types.has(ref.slice(1)) ? ref.slice(1) : undefined;
  let s = scope;
  for (;;) {
    const candidate = s ? `${s}.${ref}` : ref;
    if (types.has(candidate)) return candidate;
    if (!s) return undefined;
    s = s.includes('.') ? s.slice(0, s.lastIndexOf('.')) : '';
  }
}

for (const info of types.values()) {
  if (info.kind !== 'message') continue;
  for (const [fieldName, f] of Object.entries(info.def.fields)) {
    const resolved = SCALARS.has(f.type) ? undefined : resolveTypeName(f.type, info.fullName);
    if (resolved) info.fieldTypes.set(fieldName, resolved);
  }
}

function stripUrl(nameOrTypeUrl: string): string {
  const slash = nameOrTypeUrl.lastIndexOf('/');
  return slash >= 0 ? nameOrTypeUrl.slice(slash + 1) : nameOrTypeUrl;
}

// ---------------------------------------------------------------- scalars

function camel(name: string): string {
  return name.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
}

/** Reads a field from a decodedMsg-style (camelCase) or wire-style (snake_case) object. */
function readField(obj: Record<string, unknown>, name: string): unknown {
  const c = camel(name);
  const v = obj[c];
  return v !== undefined ? v : obj[name];
}

function int64String(v: unknown): string {
  if (v === undefined || v === null) return '0';
  return typeof v === 'object' ? String((v as { toString(): string }).toString()) : String(v);
}

export function bytesToBase64(v: unknown): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'string') return v; // already base64 (defensive)
  return toBase64(v as Uint8Array);
}

function scalarJson(type: string, v: unknown): unknown {
  if (SCALARS_64.has(type)) return int64String(v);
  switch (type) {
    case 'bytes':
      return bytesToBase64(v);
    case 'string':
      return v === undefined || v === null ? '' : String(v);
    case 'bool':
      return Boolean(v);
    default:
      return v === undefined || v === null ? 0 : Number(v);
  }
}

/** RFC 3339 UTC (Z) with up to 9 fractional digits, the proto-JSON of Timestamp. */
export function timestampJson(seconds: bigint | number, nanos: number): string {
  const base = new Date(Number(seconds) * 1000).toISOString().slice(0, 19);
  if (!nanos) return `${base}Z`;
  return `${base}.${String(nanos).padStart(9, '0').replace(/0+$/, '')}Z`;
}

function enumJson(info: EnumInfo, v: unknown): unknown {
  if (typeof v === 'string') return v;
  const n = v === undefined || v === null ? 0 : Number(v);
  return info.names.get(n) ?? n; // an unknown enum number stays a number (proto-JSON rule)
}

function valueJson(typeName: string | undefined, scalarType: string, v: unknown): unknown {
  if (!typeName) return scalarJson(scalarType, v);
  const info = types.get(typeName) as TypeInfo;
  if (info.kind === 'enum') return enumJson(info, v);
  if (v === undefined || v === null) return null;
  return messageJson(info, v as Record<string, unknown>);
}

function messageJson(info: MessageInfo, obj: Record<string, unknown>): unknown {
  if (info.fullName === 'google.protobuf.Timestamp') {
    return timestampJson(BigInt(int64String(readField(obj, 'seconds'))), Number(readField(obj, 'nanos') ?? 0));
  }
  if (info.fullName === 'google.protobuf.Any') return anyJson(obj);
  const out: Record<string, unknown> = {};
  const fields = Object.entries(info.def.fields).sort((a, b) => a[1].id - b[1].id);
  for (const [name, f] of fields) {
    const v = readField(obj, name);
    const typeName = info.fieldTypes.get(name);
    if (f.rule === 'repeated') {
      out[name] =
        Array.isArray(v) || isArrayLike(v)
          ? Array.from(v as ArrayLike<unknown>, (x) => valueJson(typeName, f.type, x))
          : [];
    } else if (info.oneofMembers.has(name)) {
      if (v !== undefined && v !== null) out[name] = valueJson(typeName, f.type, v);
    } else {
      out[name] = valueJson(typeName, f.type, v);
    }
  }
  return out;
}

function isArrayLike(v: unknown): boolean {
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof (v as { length?: unknown }).length === 'number' &&
    !ArrayBuffer.isView(v)
  );
}

/** proto-JSON of an Any: `@type` plus the inner message's fields when the contract knows it. */
function anyJson(obj: Record<string, unknown>): Record<string, unknown> {
  const typeUrl = String(readField(obj, 'type_url') ?? '');
  const value = readField(obj, 'value');
  const inner = types.get(stripUrl(typeUrl));
  if (inner && inner.kind === 'message') {
    try {
      const decoded = decodeWire(stripUrl(typeUrl), value as Uint8Array);
      return { '@type': typeUrl, ...(messageJson(inner, decoded) as Record<string, unknown>) };
    } catch {
      // fall through: keep the raw bytes
    }
  }
  return { '@type': typeUrl, value: bytesToBase64(value) };
}

function snake(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

function isLong(v: object): boolean {
  return 'low' in v && 'high' in v && 'unsigned' in v;
}

/**
 * Best-effort proto-JSON of a message the contract does not describe but the
 * node decoded (Cosmos SDK types of its default registry, e.g. MsgSend):
 * snake_case keys, 64-bit integers as strings, bytes as base64. Enums stay
 * numbers: without a descriptor their names are unknown.
 */
function genericJson(v: unknown): unknown {
  if (v === null || v === undefined) return null;
  if (typeof v === 'bigint') return v.toString();
  if (typeof v !== 'object') return v;
  if (ArrayBuffer.isView(v)) return bytesToBase64(v);
  if (Array.isArray(v)) return v.map(genericJson);
  if (v instanceof Date) return v.toISOString();
  if (isLong(v)) return String((v as { toString(): string }).toString());
  return Object.fromEntries(Object.keys(v).map((k) => [snake(k), genericJson((v as Record<string, unknown>)[k])]));
}

/** True when the contract (proto/) describes the message type of this type URL. */
export function isContractMessage(typeUrl: string): boolean {
  return types.get(stripUrl(typeUrl))?.kind === 'message';
}

/**
 * proto-JSON of one transaction message: `{"@type": typeUrl, ...fields}`.
 * `decoded` is the node's decodedMsg (undefined when decoding failed: the
 * type is not registered with the node). Contract types are converted by the
 * descriptor, other decoded types best-effort (genericJson); an undecodable
 * message keeps its raw bytes as `{"@type", "value": base64}`.
 */
export function msgToProtoJson(
  typeUrl: string,
  decoded: unknown,
  raw: Uint8Array | undefined,
): Record<string, unknown> {
  const info = types.get(stripUrl(typeUrl));
  if (decoded && typeof decoded === 'object') {
    const fields =
      info && info.kind === 'message' ? messageJson(info, decoded as Record<string, unknown>) : genericJson(decoded);
    return { '@type': typeUrl, ...(fields as Record<string, unknown>) };
  }
  return { '@type': typeUrl, value: bytesToBase64(raw) };
}

// ---------------------------------------------------------------- wire decoding

const WIRE_VARINT = 0;
const WIRE_I64 = 1;
const WIRE_LEN = 2;
const WIRE_I32 = 5;

class Reader {
  pos = 0;
  constructor(readonly buf: Uint8Array) {}

  varint(): bigint {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      if (this.pos >= this.buf.length) throw new Error('truncated varint');
      const b = this.buf[this.pos++];
      result |= BigInt(b & 0x7f) << shift;
      if (b < 0x80) return result;
      shift += 7n;
      if (shift > 70n) throw new Error('varint too long');
    }
  }

  bytes(n: number): Uint8Array {
    if (this.pos + n > this.buf.length) throw new Error('truncated field');
    const out = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  fixed(n: number): bigint {
    const b = this.bytes(n);
    let v = 0n;
    for (let i = n - 1; i >= 0; i--) v = (v << 8n) | BigInt(b[i]);
    return v;
  }
}

function toSigned(v: bigint, bits: bigint): bigint {
  return BigInt.asIntN(Number(bits), v);
}

function scalarFromWire(type: string, wire: number, r: Reader): unknown {
  switch (type) {
    case 'string':
      return utf8String(r.bytes(Number(r.varint())));
    case 'bytes':
      return r.bytes(Number(r.varint()));
    case 'bool':
      return r.varint() !== 0n;
    case 'uint64':
      return BigInt.asUintN(64, r.varint());
    case 'int64':
      return toSigned(r.varint(), 64n);
    case 'sint64': {
      const z = BigInt.asUintN(64, r.varint());
      return (z >> 1n) ^ -(z & 1n);
    }
    case 'uint32':
      return Number(BigInt.asUintN(32, r.varint()));
    case 'int32':
      return Number(toSigned(r.varint(), 32n));
    case 'sint32': {
      const z = Number(BigInt.asUintN(32, r.varint()));
      return (z >>> 1) ^ -(z & 1);
    }
    case 'fixed64':
      return r.fixed(8);
    case 'sfixed64':
      return toSigned(r.fixed(8), 64n);
    case 'fixed32':
      return Number(r.fixed(4));
    case 'sfixed32':
      return Number(toSigned(r.fixed(4), 32n));
    case 'double':
      return Buffer.from(r.bytes(8)).readDoubleLE(0);
    case 'float':
      return Buffer.from(r.bytes(4)).readFloatLE(0);
    default:
      throw new Error(`unsupported scalar ${type} (wire ${wire})`);
  }
}

function skip(wire: number, r: Reader): void {
  if (wire === WIRE_VARINT) r.varint();
  else if (wire === WIRE_I64) r.bytes(8);
  else if (wire === WIRE_LEN) r.bytes(Number(r.varint()));
  else if (wire === WIRE_I32) r.bytes(4);
  else throw new Error(`unsupported wire type ${wire}`);
}

/**
 * Decodes protobuf bytes of a contract message into a plain object keyed by
 * proto field names (bigint for 64-bit integers, Uint8Array for bytes,
 * numbers for enums). Unknown fields are skipped.
 */
export function decodeWire(typeName: string, bytes: Uint8Array): Record<string, unknown> {
  const info = types.get(stripUrl(typeName));
  if (!info || info.kind !== 'message') throw new Error(`unknown message type ${typeName}`);
  return decodeMessageWire(info, new Reader(bytes));
}

function decodeMessageWire(info: MessageInfo, r: Reader): Record<string, unknown> {
  const byId = new Map(Object.entries(info.def.fields).map(([name, f]) => [f.id, [name, f] as const]));
  const out: Record<string, unknown> = {};
  while (r.pos < r.buf.length) {
    const tag = Number(r.varint());
    const id = tag >>> 3;
    const wire = tag & 7;
    const entry = byId.get(id);
    if (!entry) {
      skip(wire, r);
      continue;
    }
    const [name, f] = entry;
    const values = readValues(info, name, f, wire, r);
    if (f.rule === 'repeated') out[name] = [...((out[name] as unknown[]) ?? []), ...values];
    else out[name] = values[values.length - 1];
  }
  return out;
}

function readValues(info: MessageInfo, name: string, f: FieldDef, wire: number, r: Reader): unknown[] {
  const typeName = info.fieldTypes.get(name);
  const sub = typeName ? types.get(typeName) : undefined;
  if (sub && sub.kind === 'message') {
    return [decodeMessageWire(sub, new Reader(r.bytes(Number(r.varint()))))];
  }
  const scalarType = sub ? 'int32' : f.type; // enums travel as int32 varints
  // packed repeated scalars arrive as one length-delimited run
  if (wire === WIRE_LEN && scalarType !== 'string' && scalarType !== 'bytes') {
    const inner = new Reader(r.bytes(Number(r.varint())));
    const out: unknown[] = [];
    while (inner.pos < inner.buf.length) out.push(scalarFromWire(scalarType, wire, inner));
    return out;
  }
  return [scalarFromWire(scalarType, wire, r)];
}
